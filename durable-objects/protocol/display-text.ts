// Titles and names are shown inline, beside other text. Bidi embedding, override and isolate
// controls (U+202A–U+202E, U+2066–U+2069) in them reorder what they hold and what follows:
// "invoice\u202Efdp.exe" reads as "invoiceexe.pdf". Right-to-left scripts need none of them (their
// letters carry their direction), so they are dropped wherever a title or a name comes in.
import { z } from "zod";

const BIDI_CONTROLS = /[\u202a-\u202e\u2066-\u2069]/g;

export const withoutBidiControls = (text: string): string => text.replace(BIDI_CONTROLS, "");

/** A title from input: without bidi controls, trimmed, 1–200 characters. */
export const TitleInput = z
  .string()
  .transform(withoutBidiControls)
  .pipe(z.string().trim().min(1).max(200));
