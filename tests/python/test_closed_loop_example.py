"""examples/closed_loop_pd.py runs: PD control of a mass with LuGre friction stepped at 1 kHz with
Contact.step; the LuGre feed-forward reduces the tracking error, the plot is written."""

import os
import re
import subprocess
import sys

import bristle


def test_closed_loop_pd_example(source_dir, tmp_path):
    env = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.dirname(bristle.__file__)), MPLBACKEND="Agg")
    r = subprocess.run([sys.executable, str(source_dir / "examples" / "closed_loop_pd.py"), "--out", str(tmp_path)],
                       capture_output=True, text=True, env=env, timeout=300, check=True)
    m = re.search(r"PD ([0-9.e+-]+) m, PD \+ LuGre feed-forward ([0-9.e+-]+) m", r.stdout)
    assert m, r.stdout
    rms_pd, rms_ff = float(m.group(1)), float(m.group(2))
    assert rms_pd > 10.0 * rms_ff  # measured: 9.1 mm vs 0.064 mm
    png = tmp_path / "closed_loop_pd.png"
    assert png.is_file() and png.stat().st_size > 10000
