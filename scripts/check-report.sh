#!/usr/bin/env bash
# Opens the report.html of a small run of every shipped spec, the literature's among them (and
# of the gambler's ruin example and a 12-variant War sweep, tests/specs/good/war_sweep_12.toml)
# in headless Chromium with networking refused, and checks that:
#   - every table and every chart of the run is in the rendered page (--dump-dom);
#   - the page made no network request and nothing failed to load (Chromium's net log);
#   - no JavaScript error or other console message was logged, and the page's script ran;
#   - no table (the reading's included) shows an interval in columns of its own, and every
#     highlighted significant row says so in words;
#   - with JavaScript off, the same tables and charts are there and nothing needing it shows;
#   - clicking a column header sorts the table and the variant filter hides the right rows;
#   - in a window 1,300 pixels wide, with every folded block opened, nothing is cut off: the
#     page does not run wider than the window, every table fits its box or its box scrolls
#     sideways, and every chart fits the page;
#   - every family of more than 20 tests is folded, its summary line saying how many rows it
#     holds and how many are significant;
# and saves screenshots of each page for a person to look at: the whole page, and its top
# (the screenshot in the README is war_placement's: docs/report-html.png).
#
#   scripts/check-report.sh                 # trials per variant: 2000
#   REPORT_TRIALS=500 scripts/check-report.sh
#
# (That no legend covers a line and that more than ten series never share a colour and a line
# style are checked in Rust, on the charts' layout: `cargo test --lib plot`.)
#
# Screenshots (NAME.png the whole page, NAME.top.png its top), rendered DOMs and browser logs
# go to $CARGO_TARGET_DIR/report-check (default target/report-check). Chromium is installed with apt-get when missing; when it cannot be
# installed the check is skipped with a message (exit 0). Any failed check exits non-zero.
set -euo pipefail
cd "$(dirname "$0")/.."

trials=${REPORT_TRIALS:-2000}
target_dir=${CARGO_TARGET_DIR:-target}
out="$target_dir/report-check"
# Tall enough for the longest report of the shipped specs (about 14,000 px at this width);
# Chromium draws no screenshot much taller than 16,000 px.
window="1280,${REPORT_SHOT_HEIGHT:-16000}"
# The page width a reader's screen gives, for the check that nothing is cut off.
fit_window="1300,2000"
# The top of a page: the run at a glance, the first table and chart of the reading and the
# first comparisons, as the README shows it.
top_window="1100,2500"

browser=""
find_browser() {
  browser=$(command -v chromium || command -v chromium-browser || true)
}
find_browser
if [ -z "$browser" ]; then
  echo "check-report: Chromium is missing; installing Debian's chromium with apt-get" >&2
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    export DEBIAN_FRONTEND=noninteractive
    if apt-get update -qq >/dev/null && apt-get install -y -qq --no-install-recommends chromium >/dev/null; then
      find_browser
    fi
  fi
  if [ -z "$browser" ]; then
    echo "check-report: SKIPPED: the chromium package cannot be installed here (no root, no apt-get, or no package source); report.html was not checked in a browser" >&2
    exit 0
  fi
fi
echo "check-report: $("$browser" --version 2>/dev/null | head -n 1)"

cargo build --release --quiet --bin experiment --example gamblers_ruin
engine="$target_dir/release/experiment"
ruin="$target_dir/release/examples/gamblers_ruin"

rm -rf "$out"
mkdir -p "$out"
scratch=$(mktemp -d)
running=""
cleanup() {
  # Stop only the browser this script started, if one is still running: it runs in its own
  # process group (setsid), so its helper processes go with it.
  if [ -n "$running" ]; then
    kill -TERM -- "-$running" 2>/dev/null || true
  fi
  rm -rf "$scratch"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# browse PAGE NAME MODE: runs Chromium on PAGE with networking refused, writing
# $out/NAME.MODE-log (stderr with console messages) and $out/NAME.MODE-netlog.json; MODE is
# "dom" (the rendered DOM to $out/NAME.dom.html), "nojs" (the DOM with JavaScript off, to
# $out/NAME.nojs.html), "use" (the DOM after sorting and filtering, to $out/NAME.use.html),
# "fit" (the DOM after the layout checks in a window $fit_window wide, to $out/NAME.fit.html),
# "shot" (a screenshot to $out/NAME.png) or "top" (a screenshot of the page's top to
# $out/NAME.top.png).
browse() {
  local page=$1 name=$2 mode=$3 profile
  profile=$(mktemp -d "$scratch/profile.XXXXXX")
  local flags=(--headless --no-sandbox --disable-gpu --disable-quic --no-first-run
    --disable-background-networking --disable-component-update --disable-sync
    --disable-default-apps --disable-extensions --user-data-dir="$profile"
    --proxy-server=127.0.0.1:9 "--proxy-bypass-list=<-loopback>"
    --enable-logging=stderr --v=0 --log-net-log="$out/$name.$mode-netlog.json"
    --hide-scrollbars)
  local result=0
  if [ "$mode" = dom ]; then
    setsid timeout 120 "$browser" "${flags[@]}" --dump-dom "file://$page" \
      >"$out/$name.dom.html" 2>"$out/$name.$mode-log" &
  elif [ "$mode" = nojs ]; then
    # --dump-dom itself needs JavaScript, so "off" is the page with its script removed.
    local bare="$scratch/$name-without-script.html"
    sed '/^<script>$/,/^<\/script>$/d' "$page" >"$bare"
    if grep -q '<script' "$bare"; then
      echo "cannot remove the script from $page" >"$out/$name.$mode-log"
      return 1
    fi
    setsid timeout 120 "$browser" "${flags[@]}" --dump-dom "file://$bare" \
      >"$out/$name.nojs.html" 2>"$out/$name.$mode-log" &
  elif [ "$mode" = use ]; then
    # The page with a script that uses it as a reader would: sort, filter, then report.
    local used="$scratch/$name-used.html"
    sed 's|^</body>$||; s|^</html>$||' "$page" >"$used"
    cat "$use_script" >>"$used"
    setsid timeout 120 "$browser" "${flags[@]}" --dump-dom "file://$used" \
      >"$out/$name.use.html" 2>"$out/$name.$mode-log" &
  elif [ "$mode" = fit ]; then
    local fitted="$scratch/$name-fit.html"
    sed 's|^</body>$||; s|^</html>$||' "$page" >"$fitted"
    cat "$fit_script" >>"$fitted"
    setsid timeout 120 "$browser" "${flags[@]}" --window-size="$fit_window" --dump-dom \
      "file://$fitted" >"$out/$name.fit.html" 2>"$out/$name.$mode-log" &
  elif [ "$mode" = top ]; then
    setsid timeout 120 "$browser" "${flags[@]}" --window-size="$top_window" \
      --screenshot="$out/$name.top.png" "file://$page" \
      >/dev/null 2>"$out/$name.$mode-log" &
  else
    setsid timeout 120 "$browser" "${flags[@]}" --window-size="$window" \
      --screenshot="$out/$name.png" "file://$page" \
      >/dev/null 2>"$out/$name.$mode-log" &
  fi
  running=$!
  wait "$running" || result=$?
  running=""
  return "$result"
}

# problems NAME: the browser's complaints about page NAME, one per line (empty when clean).
problems() {
  local name=$1 mode
  for mode in dom nojs use fit shot top; do
    [ -f "$out/$name.$mode-log" ] || continue
    # Requests made for the page (their network isolation key is the file:// page), not the
    # browser's own background traffic, which the refused proxy stops as well.
    if grep -q '"network_isolation_key":"file://' "$out/$name.$mode-netlog.json"; then
      echo "the page made network requests:"
      grep '"network_isolation_key":"file://' "$out/$name.$mode-netlog.json" |
        grep -o '"url":"[^"]*"' | sort -u | sed 's/^/  /'
    fi
    grep -E 'net::ERR_|Failed to load|Not allowed to load' "$out/$name.$mode-log" | sed 's/^/  load: /' || true
    grep -E ':CONSOLE[:(]' "$out/$name.$mode-log" | sed 's/^/  console: /' || true
  done
}

failures=0
fail() {
  echo "FAIL $1: $2" >&2
  failures=$((failures + 1))
}

# check NAME DIR: checks DIR/report.html of a run.
check() {
  local name=$1 dir=$2
  local page variants
  page="$(cd "$dir" && pwd)/report.html"
  [ -f "$page" ] || { fail "$name" "no report.html in $dir"; return; }
  variants=$(grep -o '<dt>variants ([0-9]*)' "$page" | grep -o '[0-9][0-9]*' || echo 0)
  if grep -Eq 'src="http|href="http' "$page"; then
    fail "$name" "report.html refers to another site: $(grep -Eo '(src|href)="http[^"]*"' "$page" | head -n 3 | tr '\n' ' ')"
  fi
  browse "$page" "$name" dom || fail "$name" "Chromium failed on the page (status $?; see $out/$name.dom-log)"
  browse "$page" "$name" nojs || fail "$name" "Chromium failed on the page with JavaScript off (status $?; see $out/$name.nojs-log)"
  browse "$page" "$name" use || fail "$name" "Chromium failed on the page in use (status $?; see $out/$name.use-log)"
  grep -q 'data-check="ok"' "$out/$name.use.html" ||
    fail "$name" "sorting or filtering did not work: $(grep -o 'data-check="[^"]*"' "$out/$name.use.html" || echo 'the check did not run')"
  browse "$page" "$name" fit || fail "$name" "Chromium failed on the layout check (status $?; see $out/$name.fit-log)"
  grep -q 'data-fit="ok"' "$out/$name.fit.html" ||
    fail "$name" "in a ${fit_window%,*}-pixel window: $(grep -o 'data-fit="[^"]*"' "$out/$name.fit.html" || echo 'the layout check did not run')"
  browse "$page" "$name" shot || fail "$name" "Chromium failed to take a screenshot (status $?; see $out/$name.shot-log)"
  browse "$page" "$name" top || fail "$name" "Chromium failed to take a screenshot of the page's top (status $?; see $out/$name.top-log)"
  local dom="$out/$name.dom.html"
  local missing=()
  local stem tables=0 charts=0
  for stem in $(cd "$dir" && ls -- *.csv *.parquet 2>/dev/null | sed 's/\.[a-z]*$//' | sort -u); do
    tables=$((tables + 1))
    grep -q "<table class=\"data sortable\" id=\"table-$stem\"" "$dom" || missing+=("table $stem")
    grep -q "<table class=\"data sortable\" id=\"table-$stem\"" "$out/$name.nojs.html" ||
      missing+=("table $stem with JavaScript off")
  done
  for stem in $(cd "$dir" && ls -- *.svg 2>/dev/null | sed 's/\.svg$//'); do
    charts=$((charts + 1))
    grep -q "<figure class=\"chart\" id=\"chart-$stem\">" "$dom" || missing+=("chart $stem")
    grep -q "<figure class=\"chart\" id=\"chart-$stem\">" "$out/$name.nojs.html" ||
      missing+=("chart $stem with JavaScript off")
  done
  [ "$tables" -gt 0 ] || missing+=("any table (the run wrote none)")
  [ "$charts" -gt 0 ] || missing+=("any chart (the run wrote none)")
  [ ${#missing[@]} -eq 0 ] || fail "$name" "missing from the rendered page: ${missing[*]}"
  local svgs labelled
  svgs=$(grep -o '<svg ' "$dom" | wc -l)
  labelled=$(grep -o '<svg [^>]*role="img" aria-labelledby=' "$dom" | wc -l)
  [ "$svgs" -ge "$charts" ] && [ "$svgs" -eq "$labelled" ] ||
    fail "$name" "$svgs inline charts for $charts chart files, $labelled of them with role=img and a title"
  # Every table, the reading's too, shows an estimate and its interval in one cell, and marks
  # a significant row in words, not by its colour alone.
  if grep -Eq '_(lo|hi)(</button>)?</th>|>95% CI(</button>)?</th>' "$dom"; then
    fail "$name" "a table shows an interval in columns of its own: $(grep -Eo '>[^<>]*_(lo|hi)(</button>)?</th>|>95% CI(</button>)?</th>' "$dom" | head -n 3 | tr '\n' ' ')"
  fi
  if grep '<tr class="sig"' "$dom" | grep -vq '★'; then
    fail "$name" "a highlighted (significant) row does not say so in words"
  fi
  grep -q '<th scope="col"><button type="button"' "$dom" ||
    fail "$name" "the page's script did not run (no sort buttons in the headers)"
  if [ "$variants" -gt 5 ] && ! grep -q '<div class="filter">' "$dom"; then
    fail "$name" "no variant filter box for $variants variants"
  fi
  # Without JavaScript, nothing that needs it is offered: no filter box, no sort buttons.
  if grep -q '<div class="filter">\|<button' "$out/$name.nojs.html"; then
    fail "$name" "with JavaScript off the page still offers the filter box or sort buttons"
  fi
  local complaints
  complaints=$(problems "$name")
  [ -z "$complaints" ] || fail "$name" "$(printf 'the browser reported problems:\n%s' "$complaints")"
  [ -s "$out/$name.png" ] && [ -s "$out/$name.top.png" ] || fail "$name" "no screenshot"
  echo "check-report: $name: $tables tables, $charts charts, $svgs inline SVG; screenshots $out/$name.png and $out/$name.top.png"
}

# Appended to a copy of each page: clicks the first numeric column header of the first data
# table twice (ascending, then descending) and checks the order; types the first row's variant
# into the filter box, when there is one, and checks which rows stay visible. It leaves its
# verdict in <body data-check="...">.
use_script="$scratch/use.js.html"
cat >"$use_script" <<'EOF'
<script>
(function () {
  "use strict";
  var verdict = "ok";
  var table = document.querySelector("table.data");
  var headers = table.tHead.rows[0].cells;
  var column = -1;
  for (var i = 0; i < headers.length && column < 0; i++) {
    if (headers[i].classList.contains("num")) column = i;
  }
  var button = column < 0 ? null : headers[column].querySelector("button");
  if (!button) {
    verdict = "no sort button on a numeric column";
  } else {
    button.click();
    button.click();
    var values = [];
    Array.prototype.forEach.call(table.tBodies[0].rows, function (row) {
      var cell = row.cells[column];
      var raw = cell.getAttribute("data-sort");
      if (raw !== "") values.push(Number(raw === null ? cell.textContent : raw));
    });
    for (var j = 1; j < values.length; j++) {
      if (!(values[j] <= values[j - 1])) verdict = "column " + column + " not descending at row " + j;
    }
    if (headers[column].getAttribute("aria-sort") !== "descending") verdict = "aria-sort not set";
  }
  var filter = document.getElementById("variant-filter");
  var rows = document.querySelectorAll("tr[data-variant]");
  if (filter && rows.length) {
    var query = rows[0].getAttribute("data-variant").split(" ")[0];
    filter.value = query;
    filter.dispatchEvent(new Event("input"));
    var shown = 0;
    Array.prototype.forEach.call(rows, function (row) {
      var match = row.getAttribute("data-variant").toLowerCase().indexOf(query.toLowerCase()) >= 0;
      if (row.hidden === match) verdict = "filter '" + query + "' shows the wrong rows";
      if (!row.hidden) shown += 1;
    });
    if (shown === 0 || shown === rows.length) {
      verdict = "filter '" + query + "' shows " + shown + " of " + rows.length + " rows";
    }
  }
  document.body.setAttribute("data-check", verdict);
})();
</script>
</body>
</html>
EOF

# Appended to a copy of each page, in a window $fit_window wide: opens every folded block and
# checks that the page is no wider than the window, that every table fits the box it scrolls
# in (or the box scrolls), that every chart fits the page, and that every family of more than
# 20 tests is folded under a summary giving its rows and how many are significant. It leaves
# its verdict in <body data-fit="...">: "ok", or the problems found.
fit_script="$scratch/fit.js.html"
cat >"$fit_script" <<'EOF'
<script>
(function () {
  "use strict";
  var problems = [];
  var each = function (selector, check) {
    Array.prototype.forEach.call(document.querySelectorAll(selector), check);
  };
  each("details", function (block) { block.open = true; });
  var width = document.documentElement.clientWidth;
  if (document.documentElement.scrollWidth > width + 1) {
    problems.push("the page is " + document.documentElement.scrollWidth + " px wide");
  }
  each("table", function (table, i) {
    var name = table.id || "reading table " + (i + 1);
    var box = table.parentElement;
    var overflow = getComputedStyle(box).overflowX;
    var scrolls = overflow === "auto" || overflow === "scroll";
    if (table.getBoundingClientRect().width > box.clientWidth + 1 && !scrolls) {
      problems.push(name + " is cut off (wider than its box, which does not scroll)");
    }
    if (box.getBoundingClientRect().right > width + 1) {
      problems.push(name + " runs off the page");
    }
  });
  each("figure.chart svg", function (svg) {
    var box = svg.getBoundingClientRect();
    if (box.left < 0 || box.right > width + 1) {
      problems.push(svg.parentNode.id + " runs off the page");
    }
  });
  each("div.scroll[data-significant]", function (box) {
    var rows = box.querySelector("table").tBodies[0].rows.length;
    if (rows <= 20) return;
    var significant = box.getAttribute("data-significant");
    var folded = box.parentElement.tagName === "DETAILS";
    var summary = folded ? box.parentElement.querySelector("summary").textContent : "";
    if (summary.indexOf(" " + rows + " rows") < 0 ||
        summary.indexOf("(" + significant + " significant") < 0) {
      problems.push("a family of " + rows + " tests is not folded under a summary of its " +
        "rows and significant tests (" + (folded ? "'" + summary + "'" : "not folded") + ")");
    }
  });
  document.body.setAttribute("data-fit", problems.length ? problems.join("; ") : "ok");
})();
</script>
</body>
</html>
EOF

# First, a page known to make a request and to throw: the check must see both, or it proves
# nothing about the reports.
control="$scratch/control.html"
cat >"$control" <<'EOF'
<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>control</title></head>
<body><p>control</p><img src="http://example.invalid/x.png" alt="remote">
<script>notDefinedAnywhere();</script></body></html>
EOF
browse "$control" control dom || true
browse "$control" control shot || true
control_problems=$(problems control)
if ! grep -q 'example.invalid' <<<"$control_problems" || ! grep -q 'notDefinedAnywhere' <<<"$control_problems"; then
  echo "check-report: FAIL: the browser log did not show the control page's request and error; the check cannot be trusted" >&2
  printf '%s\n' "$control_problems" >&2
  exit 1
fi
echo "check-report: control page: its request and its script error were both detected"

for spec in experiments/*.toml experiments/literature/*.toml; do
  name=$(basename "$spec" .toml)
  "$engine" run "$spec" --trials "$trials" --quiet --out "$out/$name" >/dev/null
  check "$name" "$out/$name"
done
# More than ten variants, swept over two parameters, with the spec's own few trials.
"$engine" run tests/specs/good/war_sweep_12.toml --quiet --out "$out/war_sweep_12" >/dev/null
check war_sweep_12 "$out/war_sweep_12"
"$ruin" run examples/gamblers_ruin.toml --trials "$trials" --quiet --out "$out/gamblers_ruin" >/dev/null
check gamblers_ruin "$out/gamblers_ruin"

if [ "$failures" -gt 0 ]; then
  echo "check-report: $failures check(s) failed" >&2
  exit 1
fi
echo "check-report: every report passed in $("$browser" --version 2>/dev/null | head -n 1)"
