// The exec response body: a sequence of frames `[channel: 1 byte][length: 4 bytes big-endian][payload]`. Channels
// are those of Kubernetes' channel.k8s.io stream protocols: 1 stdout, 2 stderr, 3 error — the last frame, a
// metav1.Status (Success, or Failure with reason NonZeroExitCode and the exit code as cause) — so an API server can
// forward each frame into a websocket message on the same channel.

export const EXEC_CONTENT_TYPE = 'application/vnd.gardener-local.exec.v1';

export enum ExecChannel {
  Stdout = 1,
  Stderr = 2,
  Error = 3,
}

export function encodeFrame(channel: ExecChannel, payload: Buffer | string): Buffer {
  const body = typeof payload === 'string' ? Buffer.from(payload) : payload;
  const header = Buffer.alloc(5);
  header.writeUInt8(channel, 0);
  header.writeUInt32BE(body.length, 1);
  return Buffer.concat([header, body]);
}

/** Splits a byte stream into frames; feed it chunks as they arrive. */
export class FrameDecoder {
  private buffer = Buffer.alloc(0);

  push(chunk: Buffer): Array<{ channel: ExecChannel; payload: Buffer }> {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    const frames: Array<{ channel: ExecChannel; payload: Buffer }> = [];
    while (this.buffer.length >= 5) {
      const length = this.buffer.readUInt32BE(1);
      if (this.buffer.length < 5 + length) break;
      frames.push({ channel: this.buffer.readUInt8(0) as ExecChannel, payload: this.buffer.subarray(5, 5 + length) });
      this.buffer = this.buffer.subarray(5 + length);
    }
    return frames;
  }
}

export function exitStatus(exitCode: number, message?: string): Record<string, unknown> {
  if (exitCode === 0) return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success' };
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: message ?? `command terminated with non-zero exit code: exit status ${exitCode}`,
    reason: 'NonZeroExitCode',
    details: { causes: [{ reason: 'ExitCode', message: String(exitCode) }] },
  };
}
