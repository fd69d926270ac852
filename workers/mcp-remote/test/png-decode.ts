// Reads back an 8-bit RGB, unfiltered-or-filter-0 PNG as the chart tool writes it, checking
// every chunk's CRC, so tests can look at pixels.
import { crc32 } from "../src/charts/png";

export interface Decoded {
  width: number;
  height: number;
  pixel(x: number, y: number): [number, number, number];
}

export async function decodePng(bytes: Uint8Array): Promise<Decoded> {
  const signature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (!signature.every((b, i) => bytes[i] === b)) throw new Error("not a PNG signature");
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 8;
  let width = 0;
  let height = 0;
  const idat: Uint8Array[] = [];
  while (at < bytes.length) {
    const len = view.getUint32(at);
    const type = new TextDecoder().decode(bytes.subarray(at + 4, at + 8));
    const data = bytes.subarray(at + 8, at + 8 + len);
    if (crc32(bytes.subarray(at + 4, at + 8 + len)) !== view.getUint32(at + 8 + len))
      throw new Error(`bad CRC in ${type}`);
    if (type === "IHDR") {
      width = view.getUint32(at + 8);
      height = view.getUint32(at + 12);
      if (data[8] !== 8 || data[9] !== 2) throw new Error("expected 8-bit RGB");
    } else if (type === "IDAT") idat.push(data);
    else if (type === "IEND") break;
    at += 12 + len;
  }
  const inflated = new Uint8Array(
    await new Response(
      new Blob(idat as BlobPart[]).stream().pipeThrough(new DecompressionStream("deflate")),
    ).arrayBuffer(),
  );
  const stride = width * 3 + 1;
  if (inflated.length !== stride * height) throw new Error("wrong pixel data length");
  return {
    width,
    height,
    pixel(x, y) {
      if (inflated[y * stride] !== 0) throw new Error("unexpected row filter");
      const i = y * stride + 1 + x * 3;
      return [inflated[i]!, inflated[i + 1]!, inflated[i + 2]!];
    },
  };
}
