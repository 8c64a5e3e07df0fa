// A page's connection to a live table (docs/protocol.md): it says hello in the
// page's language with the last event the page has shown, hands each frame to the
// page's handler for its type, and connects again after a loss, waiting longer each
// time. A table that is gone (close code 4404) is not tried again, nor after stop().

export function openTableSocket({ path, lang, lastSeq, handlers, onClose }) {
  let socket = null;
  let retryMs = 1000;
  let stopped = false;

  function connect() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    socket = new WebSocket(`${scheme}//${location.host}${path}`);
    socket.addEventListener("open", () => {
      retryMs = 1000;
      const hello = { type: "hello", lang };
      if (lastSeq() !== null) hello.since = lastSeq();
      send(hello);
    });
    socket.addEventListener("message", (e) => {
      let frame;
      try {
        frame = JSON.parse(e.data);
      } catch {
        return;
      }
      (handlers[frame.type] || (() => {}))(frame);
    });
    socket.addEventListener("close", (e) => {
      const gone = e.code === 4404;
      if (gone) stopped = true;
      onClose({ gone, retrying: !stopped });
      if (stopped) return;
      setTimeout(connect, retryMs);
      retryMs = Math.min(retryMs * 2, 10000);
    });
  }

  function send(message) {
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
  }

  connect();
  return {
    send,
    /** Open, and welcomed (the page has the table's state). */
    connected: () => Boolean(socket) && socket.readyState === WebSocket.OPEN && lastSeq() !== null,
    /** No more reconnecting (the page is leaving for another table). */
    stop: () => {
      stopped = true;
    },
  };
}
