import { renderToStaticMarkup } from "react-dom/server";
import { expect, it } from "vitest";
import { Markdown } from "./Markdown";

it("never turns model output into markup", () => {
  expect(renderToStaticMarkup(<Markdown text="<script>x()</script>" />)).not.toContain("<script>");
});
