// The "Print" button only exists where it works: with JavaScript.
for (const button of document.querySelectorAll('[data-action="print"]')) {
  button.addEventListener("click", () => window.print());
  const holder = button.closest("[hidden]");
  if (holder) holder.hidden = false;
}
