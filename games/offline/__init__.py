"""The site as an installable app that keeps what a device has read: the web app
manifest, the service worker (served from the site's root so that it may answer for
every page), the site's version baked into it, and the page shown for an address that
needs the network while there is none. See docs/offline.md."""
