#!/usr/bin/env bash
# Regenerates the key tables of docs/scenarios.md from the parameter schema: every block
#   <!-- keys KIND SECTION: ... -->  ...  <!-- end keys -->
# becomes the output of `bristle keys KIND --section SECTION` (SECTION "top" is the top level).
# Usage: scripts/update_docs_keys.sh [BRISTLE_BIN]   (default build/release/bristle); tests/io/keys_test.cpp
# fails while the committed docs differ. Takes well under a second.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
bin="${1:-$root/build/release/bristle}"
/usr/bin/python3 - "$bin" "$root/docs/scenarios.md" <<'PY'
import re, subprocess, sys
binary, path = sys.argv[1], sys.argv[2]
text = open(path).read()
def table(m):
    kind, section = m.group(1), m.group(2)
    out = subprocess.run([binary, "keys", kind, "--section", "" if section == "top" else section],
                         check=True, capture_output=True, text=True).stdout
    return m.group(0)[: m.group(0).index("-->") + 4] + out + "<!-- end keys -->"
new = re.sub(r"<!-- keys (\S+) (\S*): [^\n]*-->\n[\s\S]*?<!-- end keys -->", table, text)
if new != text:
    open(path, "w").write(new)
    print(f"{path}: key tables regenerated")
PY
