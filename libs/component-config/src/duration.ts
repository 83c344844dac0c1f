// Go's time.Duration text format ("300ms", "1m30s", "24h"), which every Gardener configuration uses: the one
// implementation in @gardener-ts/api, in milliseconds.
export { parseDuration, formatDuration } from '@gardener-ts/api';
