// The Play page: the practice form shows a level only for the computer players
// chosen (with two computers, no "Computer 3").
const computers = document.getElementById("practice_computers");

function showLevels() {
  const n = Number(computers.value);
  for (const choice of document.querySelectorAll(".level-choice[data-computer]")) {
    choice.hidden = Number(choice.dataset.computer) > n;
  }
}

if (computers) {
  computers.addEventListener("change", showLevels);
  showLevels();
}
