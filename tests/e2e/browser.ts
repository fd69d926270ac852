// Debian's chromium driven by playwright-core, with the flags DESIGN.md names, and a watch on
// what a page does that it must not: open dialogs (a script ran) or reach another origin.
import { type Browser, chromium, type Page } from "playwright-core";

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

export interface PageWatch {
  /** Requests to anywhere but our origin (data: and blob: URLs stay in the page). */
  outside: string[];
  /** alert/confirm/prompt dialogs: only a script of the page's content would open one. */
  dialogs: string[];
}

export function watchPage(page: Page, origin: string): PageWatch {
  const watch: PageWatch = { outside: [], dialogs: [] };
  page.on("request", (r) => {
    const url = r.url();
    if (!url.startsWith(origin) && !/^(data|blob):/.test(url)) watch.outside.push(url);
  });
  page.on("dialog", (d) => {
    watch.dialogs.push(d.message());
    void d.dismiss();
  });
  return watch;
}
