#!/bin/sh
# Tests three apps Strata did not write, the way their developers could in CI:
# the GTK 4 demo and its Qt 5 twin clicked and typed into on kwin, mutter and sway, foot typed into on
# sway — each started headless, driven, captured and compared by strata-probe.
set -e
cd "$(dirname "$0")"
probe=${STRATA_PROBE:-../../.build/debug/strata-probe}
[ -x "$probe" ] || (cd ../.. && swift build --product strata-probe)
"$probe" exec --compositor kwin --script gtk-demo.script -- ./gtk-demo.py
"$probe" exec --compositor mutter --script gtk-demo.script -- ./gtk-demo.py
"$probe" exec --compositor sway --script gtk-demo.script -- ./gtk-demo.py
"$probe" exec --compositor kwin --script qt-demo.script -- ./qt-demo.py
"$probe" exec --compositor mutter --script qt-demo.script -- ./qt-demo.py
"$probe" exec --compositor sway --script qt-demo.script -- ./qt-demo.py
"$probe" exec --compositor sway --script foot.script -- foot sh
