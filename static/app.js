// Pairs each slider with its number input. The number input carries the value, takes the keyboard
// and works without JavaScript; the slider, shown only when this script runs (so that without it
// nothing the user moves is lost), mirrors it and, when moved, writes into it.
const sliderOf = (input) => document.getElementById(input.id + "-slider");

function showValue(slider, value) {
  slider.value = value;
  slider.setAttribute("aria-valuetext", `${value} ${slider.dataset.unit}`.trim());
}

const showSliders = () => {
  document.querySelectorAll("input[type=range][data-pair]").forEach((slider) => { slider.hidden = false; });
};
showSliders();
// htmx keeps no snapshot of the calculator (hx-history="false"): back and forward put the server's
// page in, its sliders hidden as in any page, so show them again.
document.addEventListener("htmx:historyRestore", showSliders);

document.addEventListener("input", (event) => {
  const el = event.target;
  if (el.matches("input[type=range][data-pair]")) {
    document.getElementById(el.dataset.pair).value = el.value;
    showValue(el, el.value);
    // The slider asks for results itself (below): the form's own trigger would wait for the hand to stop.
    event.stopPropagation();
    if (el.form) slid(el.form);
  } else if (el.matches("input[type=number]") && sliderOf(el)) {
    showValue(sliderOf(el), el.value);
  }
  // A slider per another field (GPU-hours per GPU used at once) ends where that field says, and
  // its number box says when the value is past that end.
  if (el.matches("input[type=number]")) {
    document.querySelectorAll(`input[type=range][data-each="${el.id}"]`).forEach((slider) => {
      slider.max = String(Number(slider.dataset.eachMax) * Math.max(1, Math.floor(Number(el.value) || 1)));
      const pair = document.getElementById(slider.dataset.pair);
      showValue(slider, pair.value);
      sayBeyond(pair, slider);
    });
    const own = sliderOf(el);
    if (own && own.dataset.each) sayBeyond(el, own);
  }
}, true);

// While a slider moves, the results follow it: a request at most every SLIDE_EVERY ms (htmx's
// hx-sync="this:replace" drops an older one still in flight), and always one for where it stopped, which
// htmx's own throttle would drop. A drag (moves less than DRAG_PAUSE apart, the form's delay for typing)
// is one step of the history, as when its one request waited for the hand to stop: its first answer
// pushes the address, the later ones replace it.
const SLIDE_EVERY = 80;
const DRAG_PAUSE = 200;
const sliding = { drag: 0, dragEnds: null, wait: null, due: null, pushed: 0 };

function slid(form) {
  if (sliding.dragEnds === null) sliding.drag += 1;
  clearTimeout(sliding.dragEnds);
  sliding.dragEnds = setTimeout(() => { sliding.dragEnds = null; }, DRAG_PAUSE);
  askWhileSliding(form);
}

function askWhileSliding(form) {
  if (sliding.wait !== null) {
    sliding.due = form;
    return;
  }
  form.dispatchEvent(new CustomEvent("slide", { detail: { drag: sliding.drag } }));
  sliding.wait = setTimeout(() => {
    const due = sliding.due;
    sliding.wait = sliding.due = null;
    if (due) askWhileSliding(due);
  }, SLIDE_EVERY);
}

document.addEventListener("htmx:beforeHistoryUpdate", (event) => {
  const asked = event.detail.requestConfig && event.detail.requestConfig.triggeringEvent;
  if (!asked || asked.type !== "slide") return;
  if (asked.detail.drag === sliding.pushed) event.detail.history.type = "replace";
  sliding.pushed = asked.detail.drag;
});

// A heavy answer (a split, any GPU quoted afresh) that the server is too busy for comes back 429 or 503
// with Retry-After, and htmx swaps nothing in. Say so, and once that many seconds have passed ask again
// with the form as it is then. At most one retry waits, and a request made meanwhile (the user moved on)
// takes its place: the newest inputs win, nothing typed is lost, and a busy server is asked once a wait.
const BUSY = [429, 503];
const RETRY_AFTER_MOST_S = 60;
const busy = { retry: null };

function sayBusy(text) {
  const said = document.getElementById("busy");
  if (said && said.textContent !== text) said.textContent = text;
}

document.addEventListener("htmx:beforeRequest", (event) => {
  if (event.detail.elt.id !== "calculator") return;
  clearTimeout(busy.retry);
  busy.retry = null;
});

document.addEventListener("htmx:responseError", (event) => {
  const form = event.detail.elt;
  const status = event.detail.xhr.status;
  if (form.id !== "calculator" || !BUSY.includes(status)) return;
  const told = parseInt(event.detail.xhr.getResponseHeader("Retry-After"), 10);
  const seconds = Math.min(RETRY_AFTER_MOST_S, Math.max(1, Number.isNaN(told) ? 5 : told));
  sayBusy(`The server is busy: trying again in ${seconds} s with your latest inputs.`);
  clearTimeout(busy.retry);
  busy.retry = setTimeout(() => {
    busy.retry = null;
    form.dispatchEvent(new CustomEvent("slide", { detail: { drag: sliding.drag } }));
  }, seconds * 1000);
});

document.addEventListener("htmx:afterRequest", (event) => {
  if (event.detail.elt.id === "calculator" && event.detail.successful) sayBusy("");
});

// The upload's file and pasted hours sit in the calculator's job fold but belong to the upload's own
// form: what is typed there changes none of the calculator's inputs, so it asks for no new results.
document.querySelectorAll(".upload").forEach((area) => {
  area.addEventListener("input", (event) => event.stopPropagation());
});

// The words the server writes under a number past its slider's end (app/quoting/form.py's `beyond`).
function sayBeyond(input, slider) {
  const note = document.getElementById(input.id + "-beyond");
  if (!note) return;
  const end = Number(slider.max);
  const each = end / Number(slider.dataset.eachMax);
  const unit = note.dataset.eachUnit;
  note.textContent = Number(input.value) > end
    ? note.dataset.beyond
      .replace("{each}", `${each} ${each === 1 ? unit.slice(0, -1) : unit}`)
      .replace("{end}", end.toLocaleString("en-US"))
    : "";
}

// After a live update, each field's error slot says whether the field is wrong: mark the field so
// (aria-invalid), and open its group, as the whole page does when it is rendered with the mistake.
// A response with new results had no mistake: it sends no error slots, and they are emptied here.
document.addEventListener("htmx:afterSettle", () => {
  const problem = document.getElementById("results-problem");
  if (problem && problem.textContent.trim() === "") {
    document.querySelectorAll("form#calculator .error").forEach((slot) => { slot.textContent = ""; });
  }
  document.querySelectorAll("form#calculator .field").forEach((field) => {
    const slot = field.querySelector(".error");
    const input = field.querySelector("input:not([type=range]), select");
    if (!slot || !input) return;
    const wrong = slot.textContent.trim() !== "";
    field.classList.toggle("invalid", wrong);
    if (wrong) input.setAttribute("aria-invalid", "true");
    else input.removeAttribute("aria-invalid");
    // A wrong field in a folded group opens it (and any fold around that), as the whole page does.
    for (let fold = wrong && field.closest("details"); fold; fold = fold.parentElement.closest("details")) {
      fold.open = true;
    }
  });
});

// htmx cleans up every element it removes, two events each: for the ~300 elements of the old results
// that took about 10 ms of each slider move. When it starts on an old results block that a new one
// already precedes (a swap in progress), empty it, so that the walk ends there: none of its
// elements carries anything htmx set up (htmx also drops the listeners of removed elements itself).
document.addEventListener("htmx:beforeCleanupElement", (event) => {
  const old = event.target;
  if (old.id === "results" && document.getElementById("results") !== old) old.replaceChildren();
});

// On a saved scenario's page, once the results show other inputs than the saved ones, the words
// about "the saved numbers" and the saved link make way for ones that say so.
document.addEventListener("htmx:afterSwap", (event) => {
  if (event.detail.target.id !== "results") return;
  document.querySelectorAll("[data-until-changed]").forEach((el) => { el.hidden = true; });
  document.querySelectorAll("[data-once-changed]").forEach((el) => { el.hidden = false; });
});

// "Copy link": copies the value of the input the button names, and says so.
document.addEventListener("click", async (event) => {
  const button = event.target.closest("button[data-copy]");
  if (!button) return;
  const field = document.getElementById(button.dataset.copy);
  const status = button.parentElement.querySelector(".copied");
  try {
    await navigator.clipboard.writeText(field.value);
    status.textContent = "Copied.";
  } catch {
    field.select();
    status.textContent = "Select and copy the link above.";
  }
});

// Upload progress for large imports (htmx reports the request's upload progress).
document.addEventListener("htmx:xhr:progress", (event) => {
  const bar = document.getElementById("upload-progress");
  if (bar && event.detail.lengthComputable) {
    bar.hidden = false;
    bar.value = Math.round((event.detail.loaded / event.detail.total) * 100);
  }
});

// An admin form refused (422) answers with the page that says why: the import's preview of a file with
// problems, a field's message. htmx swaps in no 4xx by default, which left the admin a stuck progress bar.
document.addEventListener("htmx:beforeSwap", (event) => {
  if (event.detail.xhr.status === 422 && event.detail.requestConfig.elt.closest(".admin-form")) {
    event.detail.shouldSwap = true;
    event.detail.isError = false;
  }
});

// A fold marked to close on a narrow screen (the explorer's filters, which would push the offers a
// screen down) closes there; without this script it stays open, as on a wide screen.
document.querySelectorAll("details[data-fold-below]").forEach((details) => {
  if (matchMedia(`(max-width: ${details.dataset.foldBelow})`).matches) details.open = false;
});

// Scenarios saved or opened in this browser (slug and name), kept in this browser alone and offered
// as checkboxes in the forms that compare. Read back as untrusted text: shown with textContent only.
const REMEMBERED = "gpucost.scenarios";
const REMEMBERED_MAX = 20;
const SLUG = /^[A-Za-z0-9_-]{1,32}$/;

function remembered() {
  try {
    const list = JSON.parse(localStorage.getItem(REMEMBERED) || "[]");
    return Array.isArray(list)
      ? list.filter((s) => s && typeof s.slug === "string" && SLUG.test(s.slug) && typeof s.name === "string")
      : [];
  } catch {
    return [];  // storage off, or not our JSON
  }
}

const opened = document.querySelector("section.scenario[data-slug]");
if (opened) {
  const here = { slug: opened.dataset.slug, name: opened.dataset.name || "" };
  const list = [here, ...remembered().filter((s) => s.slug !== here.slug)].slice(0, REMEMBERED_MAX);
  try { localStorage.setItem(REMEMBERED, JSON.stringify(list)); } catch { /* storage off or full */ }
}

document.querySelectorAll("form.compare-with").forEach((form) => {
  const kept = new Set(Array.from(form.querySelectorAll("input[type=hidden][name=s]"), (input) => input.value));
  const choices = remembered().filter((s) => !kept.has(s.slug));
  const box = form.querySelector("fieldset.remembered");
  if (!box || choices.length === 0) return;
  for (const scenario of choices) {
    const label = document.createElement("label");
    label.className = "check";
    const check = document.createElement("input");
    check.type = "checkbox";
    check.name = "s";
    check.value = scenario.slug;
    const slug = document.createElement("small");
    slug.textContent = ` /s/${scenario.slug}`;
    label.append(check, ` ${scenario.name || "Saved scenario"}`, slug);
    box.append(label);
  }
  box.hidden = false;
});
