// Pairs each slider with its number input: the number input carries the value (and works
// without JavaScript); the slider mirrors it and, when moved, writes into it.
document.addEventListener("input", (event) => {
  const el = event.target;
  if (el.matches("input[type=range][data-pair]")) {
    document.getElementById(el.dataset.pair).value = el.value;
  } else if (el.matches("input[type=number]")) {
    const slider = document.getElementById(el.id + "-slider");
    if (slider) slider.value = el.value;
  }
}, true);

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
