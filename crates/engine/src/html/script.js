// Sorting by column and the variant filter. Without JavaScript the page shows the tables in
// the order they were written and no filter box.
(function () {
  "use strict";
  document.documentElement.classList.add("js");
  function sortKey(cell) {
    var raw = cell.getAttribute("data-sort");
    var text = raw === null ? cell.textContent.trim() : raw;
    if (text === "" || text === "\u2013" || text === "no data") return { empty: true };
    var number = raw !== null ? Number(raw) : parseFloat(text.replace(/^<\s*/, ""));
    if (!isNaN(number) && (raw !== null || /^[<+\-]?\s*[0-9.]/.test(text))) {
      return { number: number };
    }
    return { text: text.toLowerCase() };
  }
  function compare(a, b) {
    if (a.empty || b.empty) return (a.empty ? 1 : 0) - (b.empty ? 1 : 0);
    if (a.number !== undefined && b.number !== undefined) return a.number - b.number;
    if (a.number !== undefined) return -1;
    if (b.number !== undefined) return 1;
    return a.text < b.text ? -1 : a.text > b.text ? 1 : 0;
  }
  function sortBy(table, header, column) {
    var descending = header.getAttribute("aria-sort") === "ascending";
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    var keyed = rows.map(function (row, index) {
      return { row: row, index: index, key: sortKey(row.cells[column]) };
    });
    keyed.sort(function (a, b) {
      var order = compare(a.key, b.key);
      if (order !== 0 && !(a.key.empty || b.key.empty) && descending) order = -order;
      return order || a.index - b.index;
    });
    keyed.forEach(function (item) { body.appendChild(item.row); });
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th) {
      th.removeAttribute("aria-sort");
    });
    header.setAttribute("aria-sort", descending ? "descending" : "ascending");
  }
  Array.prototype.forEach.call(document.querySelectorAll("table.sortable"), function (table) {
    if (!table.tHead || !table.tBodies.length) return;
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, column) {
      var button = document.createElement("button");
      button.type = "button";
      while (th.firstChild) button.appendChild(th.firstChild);
      button.title = "Sort by this column";
      th.appendChild(button);
      button.addEventListener("click", function () { sortBy(table, th, column); });
    });
  });
  var filter = document.getElementById("variant-filter");
  if (filter) {
    var box = filter.parentNode;
    var count = document.getElementById("filter-count");
    var rows = document.querySelectorAll("tr[data-variant]");
    box.hidden = false;
    filter.addEventListener("input", function () {
      var query = filter.value.trim().toLowerCase();
      var shown = 0;
      Array.prototype.forEach.call(rows, function (row) {
        var match = query === "" || row.getAttribute("data-variant").toLowerCase().indexOf(query) >= 0;
        row.hidden = !match;
        if (match) shown += 1;
      });
      count.textContent = query === "" ? "" : shown + " of " + rows.length + " rows shown";
    });
  }
})();
