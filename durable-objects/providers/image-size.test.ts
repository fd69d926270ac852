import { describe, expect, it } from "vitest";
import { imageSize } from "./image-size";

const b64 = (bytes: number[]) => btoa(String.fromCharCode(...bytes));

describe("an image's size from its header", () => {
  it("reads a JPEG's size from its start of frame, past the segments before it", () => {
    const app0 = [0xff, 0xe0, 0x00, 0x10, ...new Array<number>(14).fill(0)];
    // SOF0: length, precision, height 9000, width 600.
    const sof = [0xff, 0xc0, 0x00, 0x11, 0x08, 0x23, 0x28, 0x02, 0x58, 0x03];
    expect(imageSize(b64([0xff, 0xd8, ...app0, ...sof, ...new Array<number>(12).fill(0)]))).toEqual(
      { width: 600, height: 9000 },
    );
  });

  it("reads a GIF's, and gives up on what it does not know", () => {
    expect(imageSize(b64([0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 0x10, 0x27, 0x20, 0x00]))).toEqual({
      width: 10_000,
      height: 32,
    });
    expect(imageSize(b64([0x42, 0x4d, 0, 0, 0, 0]))).toBeNull();
    expect(imageSize("not base64!")).toBeNull();
  });
});
