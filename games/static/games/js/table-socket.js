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

/** A `welcome` taken into the page's `table`: the view when only the seats changed; on
 * the first welcome, or when the table went back (a new game), its view and number,
 * and, opening on a game under way, the last `history` events asked for again (told as
 * history: `table.history` is the welcome's number). */
export function takeWelcome(table, frame, { first, history, clock, send }) {
  if (!first && frame.seq === table.lastSeq) table.view = frame.view; // seats changed, not the game
  if (first || frame.seq < table.lastSeq) {
    table.view = frame.view;
    table.lastSeq = frame.seq;
    clock.reset(frame.seq);
    if (first && frame.seq > 0) {
      table.lastSeq = Math.max(0, frame.seq - history);
      table.history = frame.seq;
      send({ type: "resync", since: table.lastSeq });
    }
  }
}
