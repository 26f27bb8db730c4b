/**
 * Points per chunk. A tail is sealed at this size; a rewritten earlier chunk is split past
 * twice it. 128 measured best with 1,000-point requests (BENCHMARKS.md): each request
 * rewrites every touched series' tail, so larger chunks cost more per request.
 */
export const CHUNK_POINTS = 128;
