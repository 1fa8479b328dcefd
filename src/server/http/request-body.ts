/**
 * A request body, kept up to `keepBytes`. Past that it is still read, up to `drainBytes`, so a
 * client still sending hears the answer (a 413) instead of a reset; past that the reading stops.
 * Returns the bytes, or how many arrived when there were too many (at least keepBytes + 1).
 */
export async function readBoundedBody(
  request: Request,
  keepBytes: number,
  drainBytes: number,
): Promise<{ bytes: Buffer } | { tooLarge: number }> {
  if (!request.body) return { bytes: Buffer.alloc(0) };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > drainBytes) {
      await reader.cancel();
      break;
    }
    if (size <= keepBytes) chunks.push(value);
  }
  return size > keepBytes ? { tooLarge: size } : { bytes: Buffer.concat(chunks) };
}
