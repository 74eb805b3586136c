// Moot's service worker for players' notices (Web Push). Each push carries the notice's event
// as JSON; a notice shows its `title` and `body`, and a click opens its `url` (a window of
// this site already open on it is focused rather than opened again). A push that is not JSON,
// or has no title, still shows a notice: browsers penalise a push that shows none.

"use strict";

self.addEventListener("push", (event) => {
  let notice = {};
  try {
    notice = event.data ? event.data.json() : {};
  } catch (_) {
    notice = { body: event.data ? event.data.text() : "" };
  }
  const title = typeof notice.title === "string" && notice.title ? notice.title : "Moot";
  const options = {
    body: typeof notice.body === "string" ? notice.body : "",
    icon: "/favicon.ico",
    // One notice per table at a time: a newer one replaces the older.
    tag: typeof notice.table_id === "string" ? notice.table_id : undefined,
    data: { url: typeof notice.url === "string" ? notice.url : "/" },
  };
  event.waitUntil(self.registration.showNotification(title, options));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  // Only this site's pages are opened, whatever the notice says.
  const target = new URL(event.notification.data.url, self.location.origin);
  if (target.origin !== self.location.origin) {
    return;
  }
  event.waitUntil(
    self.clients
      .matchAll({ type: "window", includeUncontrolled: true })
      .then((windows) => {
        const open = windows.find((w) => w.url === target.href && "focus" in w);
        return open ? open.focus() : self.clients.openWindow(target.href);
      })
  );
});
