// Shown in place of a part of the app whose code (a chunk loaded on first use) could not be
// downloaded: after a deploy an open page names files the server no longer has, and offline a
// part the service worker does not hold cannot come. Only a reload brings the part back.
export function PartUnavailable() {
  return (
    <div role="alert" className="banner error" data-testid="part-unavailable">
      This part of the app could not be loaded: the app may have been updated since this page
      opened, or the network is down.{" "}
      <button type="button" onClick={() => location.reload()}>
        Reload
      </button>
    </div>
  );
}
