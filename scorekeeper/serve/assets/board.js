"use strict";
// Puts each update of the scoreboard in place as the server streams it (server-sent events).
// The server draws the board; this only swaps it in. Without this script the page still reads.
(function () {
  const board = document.getElementById("board");
  const live = document.getElementById("live");
  if (!board || !live || !("EventSource" in window)) {
    return;
  }
  const updates = new EventSource("events");
  updates.onopen = function () {
    live.textContent = "Live: the scores update by themselves.";
    live.className = "live on";
  };
  updates.onmessage = function (message) {
    board.innerHTML = message.data;
    document.body.dataset.update = message.lastEventId;
  };
  updates.onerror = function () {
    live.textContent = "Connection lost: trying again…";
    live.className = "live off";
  };
})();
