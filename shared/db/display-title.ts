// A title column read back without bidi controls. New titles lose them on the way in
// (durable-objects/protocol/display-text.ts); rows written before that still hold them, and every
// select of the column cleans them here, so no migration has to rewrite old rows.
import { customType } from "drizzle-orm/sqlite-core";
import { withoutBidiControls } from "../../durable-objects/protocol/display-text";

export const displayTitle = customType<{ data: string; driverData: string }>({
  dataType: () => "text",
  fromDriver: (value) => withoutBidiControls(value),
});
