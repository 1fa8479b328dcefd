/**
 * The V8 flags of `kb serve --low-memory`. Indexing keeps a few tens of MB live, but V8, finding
 * collection cheap, lets the heap grow to four times that between full collections. Measured in
 * interleaved runs (bench/scale.js, bench:real's corpus): indexing alone, peak RSS at 20,000
 * generated documents 283 → 156 MB (5–10 % slower), at 100,000 584 → 263 MB (as fast); p95 while
 * indexing 20,000 40 → 51 ms; bench:real's 390 real documents 455 → 380 MB but indexed in 24–28 s
 * instead of 18–22 s. A trade for large workspaces, so not the default. The library leaves its
 * host's flags alone.
 */
export const LOW_MEMORY_V8_FLAGS = ['--optimize-for-size'] as const;
/**
 * The V8 flags `kb serve` always sets. V8 lets the old generation grow by up to 4x what was live
 * at the last full collection; indexing keeps little live but makes much garbage, so the heap
 * grew to several times what it held. Growing by at most 30 % instead, measured interleaved on
 * this 2-core machine (with the extraction worker's young generation of 16 MB): peak RSS indexing
 * 20,000 generated documents 284-298 → 176 MB, 100,000 (bench/scale.js, index and restart) 648 →
 * 305 MB with index all 64.2 → 66.3 s and message p95 33.8 → 33.4 ms; bench:real's 390 real
 * documents 428-458 → 386-418 MB, indexed in 9.1-10.1 s either way. The young generation's
 * semi-spaces at 4 MB (V8's default grows them to 16 or more) take effect only from the process's
 * start (kb serve's command starts itself again with them where Node can: start-flags.ts): on Node
 * 24, node bench/scale.js 20000 (kb serve in its own process), peak RSS indexing 213-225 → 176-180
 * MB, indexing while answering 219-221 → 190 MB, message p95 14.3-15.5 → 15.9-16.4 ms.
 */
export const SERVE_V8_FLAGS = ['--heap-growing-percent=30', '--max-semi-space-size=4'] as const;
/**
 * Where kb serve cannot start with `--max-semi-space-size` (Node before 22.15, Windows), set at run
 * time it does not take: V8 sizes the young generation when it creates the heap, and grew kb
 * serve's to 32 MB while it indexed. Instead its young generation is held at its first size (1
 * MB semi-spaces), set again each time a worker thread starts. Measured on Node 20, indexing
 * 20,000 generated documents alone (interleaved runs, 2 cores): peak RSS 166-168 → 131-135 MB,
 * indexed in 16.7-19.3 s and 15.2-21.6 s; on Node 24 (which starts with the flags) it changed
 * nothing measurable, so it is set only where the semi-spaces could not be.
 */
export const YOUNG_GENERATION_HELD = '--semi-space-growth-factor=1';
/**
 * The C library's allocator settings kb serve starts with, where it starts itself again
 * (start-flags.ts; the allocator reads them only at a process's start). glibc gives threads that
 * allocate at once arenas of their own, up to eight per core, and each kept what kb serve's threads
 * (its main thread, the extraction worker, libuv's and V8's) had freed in it. Two arenas, measured
 * on Node 24, `node bench/scale.js 20000` interleaved (2 cores): peak RSS indexing 178-184 → 166-168
 * MB, indexing while answering 189-194 → 179-182 MB, the restart 143-146 → 139-141 MB; the times
 * within that day's noise (message p95 47-147 ms either way). One arena saved 2 MB more in a probe.
 * Other C libraries (musl) and systems ignore it.
 */
export const SERVE_ENVIRONMENT = { MALLOC_ARENA_MAX: '2' } as const;
