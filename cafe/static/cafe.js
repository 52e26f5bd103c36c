// The café board refreshes its table cards every two seconds (the fragment is rendered by the server).
(function () {
  const box = document.getElementById("tables");
  if (!box) return;
  async function refresh() {
    try {
      const response = await fetch(box.dataset.refresh, {cache: "no-store"});
      if (response.ok) box.innerHTML = await response.text();
    } catch (error) { /* the board's server restarting: try again next round */ }
  }
  setInterval(refresh, 2000);
})();
