// Reads container log files for `kubectl logs`: tail, since, timestamps, byte limits and follow. As kube's kubelet,
// only the current file of a run is read; a follow continues into the new file when the log is rotated.
import { open, readFile, stat } from 'node:fs/promises';

export interface LogQuery {
  tailLines?: number;
  /** Only lines at or after this time. */
  since?: Date;
  timestamps?: boolean;
  limitBytes?: number;
}

interface LogLine {
  time: string;
  text: string;
}

// `<time> <stream> <F|P> <text>`; P (partial) lines continue on the next line without a newline.
function parseLine(raw: string): { time: string; partial: boolean; text: string } | undefined {
  const match = /^(\S+) (?:stdout|stderr) ([FP]) (.*)$/s.exec(raw);
  return match ? { time: match[1], partial: match[2] === 'P', text: match[3] } : undefined;
}

function parseLog(content: string): LogLine[] {
  const lines: LogLine[] = [];
  let carry: LogLine | undefined;
  for (const raw of content.split('\n')) {
    const parsed = parseLine(raw);
    if (!parsed) continue;
    const line = carry
      ? { time: carry.time, text: carry.text + parsed.text }
      : { time: parsed.time, text: parsed.text };
    carry = parsed.partial ? line : undefined;
    if (!parsed.partial) lines.push(line);
  }
  return lines;
}

function render(lines: LogLine[], query: LogQuery): string {
  return lines.map((l) => (query.timestamps ? `${l.time} ${l.text}\n` : `${l.text}\n`)).join('');
}

function select(lines: LogLine[], query: LogQuery): LogLine[] {
  let selected = query.since ? lines.filter((l) => Date.parse(l.time) >= query.since!.getTime()) : lines;
  if (query.tailLines !== undefined) selected = query.tailLines === 0 ? [] : selected.slice(-query.tailLines);
  return selected;
}

/** The log as `kubectl logs` prints it. */
export async function readLog(path: string, query: LogQuery = {}): Promise<string> {
  const text = render(select(parseLog(await readFile(path, 'utf8')), query), query);
  return query.limitBytes !== undefined ? Buffer.from(text).subarray(0, query.limitBytes).toString('utf8') : text;
}

/**
 * Streams the log to `write`: the selected existing lines, then new lines as they are appended, until `done()` is true
 * once everything written so far has been sent (the container stopped) or `signal` aborts.
 */
export async function followLog(
  path: string,
  query: LogQuery,
  write: (chunk: string) => void,
  done: () => boolean,
  signal: AbortSignal,
  pollMs = 200,
): Promise<void> {
  const content = await readFile(path, 'utf8');
  const complete = content.slice(0, content.lastIndexOf('\n') + 1);
  let offset = Buffer.byteLength(complete);
  // When the log is rotated, the rest of the open file is read, then the new file from its start.
  let file = await open(path, 'r');
  let inode = (await file.stat()).ino;
  // Rotated between reading and opening: the opened file is the new one.
  if ((await file.stat()).size < offset) offset = 0;
  let budget = query.limitBytes ?? Infinity;
  const emit = (text: string) => {
    if (!text || budget <= 0) return;
    const bytes = Buffer.from(text).subarray(0, budget);
    budget -= bytes.length;
    write(bytes.toString('utf8'));
  };
  emit(render(select(parseLog(complete), query), query));
  const readNew = async () => {
    const size = (await file.stat()).size;
    if (size <= offset) return;
    const buffer = Buffer.alloc(size - offset);
    await file.read(buffer, 0, buffer.length, offset);
    const text = buffer.toString('utf8');
    const whole = text.slice(0, text.lastIndexOf('\n') + 1);
    offset += Buffer.byteLength(whole);
    emit(render(parseLog(whole), query));
  };
  let draining = false;
  try {
    while (!signal.aborted && budget > 0) {
      const finished = done();
      await readNew();
      const current = await stat(path).catch(() => undefined);
      // Lines the writer still had queued reach the rotated file after the rename: it is read once more a poll
      // later (or right away once the container ended) before the new file is followed.
      const rotated = !!current && current.ino !== inode;
      if (rotated && !draining && !finished) draining = true;
      else if (rotated) {
        draining = false;
        await readNew();
        await file.close();
        file = await open(path, 'r');
        inode = (await file.stat()).ino;
        offset = 0;
        await readNew();
      }
      if (finished) return;
      await new Promise((r) => setTimeout(r, pollMs));
    }
  } finally {
    await file.close();
  }
}
