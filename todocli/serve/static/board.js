// todo board: live updates (server-sent events) and actions (POST with the token in a
// header). The page reads without this script; it only enables the controls.
"use strict";
(function () {
  const token = document.querySelector('meta[name="todo-token"]').content;
  const live = document.getElementById("live");
  const board = document.getElementById("board");

  function say(text) { live.textContent = text; }

  function enable(root) {
    root.querySelectorAll("button[disabled], input[disabled]").forEach(function (el) {
      const task = el.closest("li.task");
      if (el.type === "checkbox" && task && !task.classList.contains("pending")
          && !task.classList.contains("in_progress") && !task.classList.contains("blocked")) {
        return; // a finished task's box stays as it is: undo takes a tick back
      }
      el.disabled = false;
    });
    root.querySelectorAll("li.task").forEach(function (li) { li.draggable = true; });
  }

  function replaceList(html) {
    const holder = document.createElement("div");
    holder.innerHTML = html;
    const fresh = holder.firstElementChild;
    if (!fresh) return;
    const old = document.getElementById(fresh.id);
    if (old) {
      const focused = document.activeElement && old.contains(document.activeElement)
        ? document.activeElement.getAttribute("aria-label") : null;
      old.replaceWith(fresh);
      if (focused) {
        const again = Array.from(fresh.querySelectorAll("[aria-label]"))
          .find(function (el) { return el.getAttribute("aria-label") === focused; });
        if (again) again.focus();
      }
    } else {
      board.appendChild(fresh);
    }
    enable(fresh);
  }

  async function act(section, action, task, text) {
    const body = {list: section.dataset.list, rev: Number(section.dataset.rev), action: action,
                  task: task || "", text: text || ""};
    let response;
    try {
      response = await fetch("api/act", {method: "POST", credentials: "same-origin",
        headers: {"Content-Type": "application/json", "X-Todo-Token": token},
        body: JSON.stringify(body)});
    } catch (err) {
      say("Could not reach todo serve: " + err);
      return;
    }
    const answer = await response.json().catch(function () { return {}; });
    if (answer.html) replaceList(answer.html);
    say(answer.ok ? "Done: " + action + (task ? " " + task : "") + "."
                  : "Not done: " + (answer.message || response.status) + " The list is shown as it is now.");
  }

  board.addEventListener("change", function (event) {
    const box = event.target;
    if (box.type !== "checkbox") return;
    const li = box.closest("li.task");
    const section = box.closest("section.list");
    if (box.checked) {
      act(section, "done", li.dataset.task);
    } else {
      box.checked = true;
    }
  });

  board.addEventListener("click", function (event) {
    const button = event.target.closest("button[data-act]");
    if (!button) return;
    const section = button.closest("section.list");
    const li = button.closest("li.task");
    const action = button.dataset.act;
    let text = "";
    if (action === "block") {
      text = window.prompt("Why is it blocked? (optional)", "");
      if (text === null) return;
    } else if (action === "note") {
      text = window.prompt("Note for: " + li.dataset.task, "");
      if (!text) return;
    } else if (action === "edit") {
      text = window.prompt("The task's text:", li.dataset.task);
      if (!text || text === li.dataset.task) return;
    }
    act(section, action, li ? li.dataset.task : "", text);
  });

  board.addEventListener("submit", function (event) {
    const form = event.target.closest("form.add");
    if (!form) return;
    event.preventDefault();
    const input = form.querySelector("input[name=text]");
    if (!input.value.trim()) return;
    act(form.closest("section.list"), "add", "", input.value);
  });

  // Drag and drop: a task dropped on another of its list takes that task's place.
  let dragged = null;
  board.addEventListener("dragstart", function (event) {
    dragged = event.target.closest && event.target.closest("li.task");
    if (!dragged) return;
    dragged.classList.add("dragging");
    event.dataTransfer.effectAllowed = "move";
    event.dataTransfer.setData("text/plain", dragged.dataset.task);
  });
  board.addEventListener("dragend", function () {
    if (dragged) dragged.classList.remove("dragging");
    dragged = null;
  });
  function dropTarget(event) {
    const over = event.target.closest && event.target.closest("li.task");
    if (!dragged || !over || over === dragged) return null;
    return over.closest("section.list") === dragged.closest("section.list") ? over : null;
  }
  board.addEventListener("dragover", function (event) {
    if (dropTarget(event)) event.preventDefault();
  });
  board.addEventListener("drop", function (event) {
    const over = dropTarget(event);
    if (!over) return;
    event.preventDefault();
    act(over.closest("section.list"), "move", dragged.dataset.task, over.dataset.task);
  });

  // The keyboard's way to reorder: Alt+ArrowUp / Alt+ArrowDown on a task's checkbox.
  board.addEventListener("keydown", function (event) {
    if (!event.altKey || (event.key !== "ArrowUp" && event.key !== "ArrowDown")) return;
    const li = event.target.closest && event.target.closest("li.task");
    if (!li) return;
    const items = Array.from(li.closest("section.list").querySelectorAll("li.task"));
    const next = items[items.indexOf(li) + (event.key === "ArrowUp" ? -1 : 1)];
    if (!next) return;
    event.preventDefault();
    act(li.closest("section.list"), "move", li.dataset.task, next.dataset.task);
  });

  function connect() {
    const source = new EventSource("events");
    source.addEventListener("open", function () { say("Live: changes show as they happen."); });
    source.addEventListener("list", function (event) { replaceList(JSON.parse(event.data).html); });
    source.addEventListener("board", function (event) {
      board.innerHTML = JSON.parse(event.data).html;
      enable(board);
    });
    source.addEventListener("error", function () { say("Reconnecting to todo serve..."); });
  }

  enable(board);
  say("Connecting...");
  connect();
})();
