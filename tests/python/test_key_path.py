"""Key paths from Python (issue 15, item 4): bristle.get(scenario, "law.mu_s") and
bristle.set(scenario, "body1.k0", 2e5) on a parsed scenario, with the reader's checks (InvalidInput, a
ValueError, naming the key path): set then run gives what parsing the file with the value gives."""

import math

import numpy as np
import pytest

import bristle
from bristle import io

LUMPED = """
[law]
type = "lugre"
mu_s = 1.2
mu_d = 0.8
v_s = 0.01
[body1]
type = "gkv"
k0 = 2e4
c = [30.0, 5.0]
tau = [0.01, 0.2]
[pair]
s = 0.4
[bench]
drive = "velocity"
normal_load_N = 20
[bench.input]
type = "sine"
amplitude = 0.02
omega = 6.0
[time]
t_end_s = 0.2
outputs = 21
[integrator]
method = "rodas4"
rtol = 1e-6
atol = 1e-9
"""

MAP = """kind = "patch_steady_map"
[law]
type = "frbd"
mu_s = 1.2
mu_d = 0.7
v_s = 3.49
delta_s = 0.6
[body1]
type = "elastic"
k0 = 240.0
[body2]
type = "gkv"
c = [0.5]
tau = [0.002]
[pair]
s = 0.4
[patch]
length_m = 0.1
width_m = 0.05
normal_load_N = 3000.0
nx = 12
ny = 4
[kinematics]
Vr_mps = 16.0
vx_mps = [-1.0, 0.5, 2.0]
vy_mps = 0.2
"""


def case_of(text):
    return io.parse_lumped_string(text, "k")[0]


def columns(result):
    return [c.series.to_array().tolist() for c in result.cases]


def run_case(case):
    return columns(io.LumpedStudy([case]).run())


def test_get_reads_what_the_toml_gave():
    case = case_of(LUMPED)
    assert bristle.get(case, "law.mu_s") == 1.2
    assert bristle.get(case, "body1.tau[1]") == 0.2
    assert bristle.get(case, "pair.s") == 0.4
    assert bristle.get(case, "body2.k0") == 2e4 * (1 - 0.4) / 0.4
    assert bristle.get(case, "bench.input.omega") == 6.0
    assert bristle.get(case, "time.outputs") == 21
    assert "law.mu_s" in bristle.numeric_keys(case)
    info = bristle.key_info(case, "body1.tau[1]")
    assert (info.unit, info.range, info.log_scale) == ("s", "SPD (a number: > 0)", True)
    assert (info.integer, info.numerics) == (False, False)
    # a setting of the method, not of the model (schema::Field::numerics): a fit refuses it
    assert (bristle.key_info(case, "time.t_end_s").numerics, bristle.key_info(case, "time.outputs").integer) == (True, True)


@pytest.mark.parametrize("key,value,old,new", [
    ("body1.k0", 3e4, "k0 = 2e4", "k0 = 3e4"),  # body2.k0 follows through pair.s
    ("law.mu_s", 1.5, "mu_s = 1.2", "mu_s = 1.5"),
    ("body1.tau[1]", 0.05, "tau = [0.01, 0.2]", "tau = [0.01, 0.05]"),
    ("bench.input.omega", 9.0, "omega = 6.0", "omega = 9.0"),
])
def test_set_then_run_equals_the_file_with_the_value(key, value, old, new):
    case = case_of(LUMPED)
    before = run_case(case)
    bristle.set(case, key, value)
    assert bristle.get(case, key) == value
    by_file = case_of(LUMPED.replace(old, new))
    assert run_case(case) == run_case(by_file)
    assert run_case(case) != before


def test_bad_keys_and_values_name_the_key_path_and_change_nothing():
    case = case_of(LUMPED)
    with pytest.raises(ValueError, match=r"^law\.mu_s = -1: must be > 0$"):
        bristle.set(case, "law.mu_s", -1.0)
    with pytest.raises(bristle.InvalidInput, match=r'^unknown key "law\.mu_z"; did you mean "law\.mu_s"\?$'):
        bristle.set(case, "law.mu_z", 1.0)
    with pytest.raises(ValueError, match=r'^unknown key "body1\.tua\[0\]"; did you mean "body1\.tau\[0\]"\?$'):
        bristle.get(case, "body1.tua[0]")
    with pytest.raises(ValueError, match=r"^law\.v_s = nan: must be finite$"):
        bristle.set(case, "law.v_s", math.nan)
    with pytest.raises(ValueError, match=r'^key "bench\.mass_kg" does not apply to bench\.drive = "velocity"'):
        bristle.set(case, "bench.mass_kg", 2.0)
    with pytest.raises(ValueError, match=r"^body2\.k0: derived from pair\.s = 0\.4"):
        bristle.set(case, "body2.k0", 1e4)
    with pytest.raises(ValueError, match=r"^pair\.s = 1\.5: must lie in \(0, 1\)$"):
        bristle.set(case, "pair.s", 1.5)
    assert bristle.get(case, "law.mu_s") == 1.2
    assert bristle.get(case, "pair.s") == 0.4
    assert run_case(case) == run_case(case_of(LUMPED))


def test_a_patch_map_scenario_is_changed_in_place_and_runs_as_the_file():
    sc = bristle.parse_scenario_string(MAP, "m")
    assert bristle.get(sc, "pair.s") == 0.4
    assert bristle.get(sc, "body2.tau") == 0.002
    bristle.set(sc, "pair.s", 0.55)
    bristle.set(sc, "patch.nx", 16)
    assert bristle.get(sc, "pair.s") == 0.55
    by_file = bristle.parse_scenario_string(MAP.replace("s = 0.4", "s = 0.55").replace("nx = 12", "nx = 16"), "m")
    assert columns(sc.run()) == columns(by_file.run())
    with pytest.raises(ValueError, match=r"^patch\.nx = 3: must be >= 4$"):
        bristle.set(sc, "patch.nx", 3)
    assert bristle.get(sc, "patch.nx") == 16
    assert "kinematics.vy_mps" in bristle.numeric_keys(sc)
    assert bristle.key_info(sc, "patch.length_m").unit == "m"


def test_a_lumped_study_sets_every_case_and_refuses_its_sweep_parameter():
    sweep = LUMPED + '[sweep]\nparameter = "bench.input.omega"\nvalues = [4.0, 8.0]\n'
    study = bristle.parse_scenario_string(sweep, "s")
    assert study.case_count == 2
    bristle.set(study, "law.mu_s", 1.4)
    assert [bristle.get(c, "law.mu_s") for c in study.cases] == [1.4, 1.4]
    with pytest.raises(ValueError, match=r"^bench\.input\.omega: differs between the 2 cases of the sweep"):
        bristle.get(study, "bench.input.omega")
    with pytest.raises(ValueError, match=r"^bench\.input\.omega: is the parameter of the sweep"):
        bristle.set(study, "bench.input.omega", 5.0)


def test_every_kind_has_key_paths(examples):
    # Every kind bristle runs has key paths (issue 15): each example's numeric keys read back what set() wrote.
    kinds = set()
    for path in sorted(examples.glob("*.toml")):
        if path.name.startswith("fit_"):
            continue  # fit scenarios are run by `bristle fit`
        sc = bristle.load_scenario(str(path))
        keys = bristle.numeric_keys(sc)
        assert keys, path.name
        key = keys[0]
        value = bristle.get(sc, key)
        bristle.set(sc, key, value)
        assert bristle.get(sc, key) == value, (path.name, key)
        kinds.add(sc.kind)
    assert kinds == {"lumped", "patch_steady_map", "patch_transient", "structure_kernel", "structure_stick_slip",
                     "directional_coefficients", "directional_loop", "directional_crawler", "line_steady",
                     "line_transient"}


def test_line_kinds_have_key_paths(examples):
    # fig5: s x n2 cases; a key set on the study is set in every case, the swept s is refused.
    sc = bristle.load_scenario(str(examples / "fig5_sliding_steady.toml"))
    assert bristle.get(sc, "line.L_m") == 0.2
    bristle.set(sc, "law.mu_d", 0.6)
    assert bristle.get(sc, "law.mu_d") == 0.6
    assert "line.normal_load_N" in bristle.numeric_keys(sc)
    with pytest.raises(ValueError, match=r"^pair\.s: is varied by the sweep \(sweep\.s\)"):
        bristle.set(sc, "pair.s", 0.5)
    with pytest.raises(ValueError, match=r'^case 1 of 12 \(s = 0\.2, n2 = 0\): unknown key "line\.L_mm"; did you mean "line\.L_m"\?'):
        bristle.set(sc, "line.L_mm", 0.1)



LINE_STEADY = """kind = "line_steady"
[law]
type = "frbd"
mu_s = 1.0
mu_d = 0.7
v_s = 6.0
delta_s = 2.0
[body1]
type = "gkv"
k0 = 240.0
c = [100.0]
tau = [0.1]
[body2]
type = "gkv"
c = "eq58"
tau = [{tau}]
[pair]
s = {s}
[line]
L_m = 0.2
normal_load_N = 10.0
[kinematics]
mode = "sliding"
V_mps = [0.1, 1.0, 10.0]
"""


@pytest.mark.parametrize("parameter,column,values", [("pair.s", "s_swept", [0.3, 0.6]), ("body2.tau[0]", "tau", [0.05, 0.2])])
def test_line_steady_sweeps_any_numeric_key_from_toml(parameter, column, values):
    # The [sweep] of every kind in a line kind (issue 15): applied by key path to the parsed cases; each case is what
    # the file with that value gives, and the swept value is the first CSV column.
    extra = f'[sweep]\nparameter = "{parameter}"\nvalues = {values}\n' + ('column = "s_swept"\n' if column == "s_swept" else "")
    study = bristle.io.parse_scenario_string(LINE_STEADY.format(tau=0.1, s=0.4) + extra, "m")
    assert study.case_count == len(values)
    result = study.run()
    assert result.csv_text().splitlines()[0].split(",")[:2] == [column, "s"]
    for i, v in enumerate(values):
        one = bristle.io.parse_scenario_string(
            LINE_STEADY.format(tau=v if parameter == "body2.tau[0]" else 0.1, s=v if parameter == "pair.s" else 0.4), "m"
        ).run()
        assert np.array_equal(result.cases[i].series["Fx_N"], one.cases[0].series["Fx_N"])
    assert not np.array_equal(result.cases[0].series["Fx_N"], result.cases[1].series["Fx_N"])
    with pytest.raises(ValueError, match=r"^sweep case 2 of 2 \(pair.s = 2\): pair.s = 2: must lie in \(0, 1\)"):
        bristle.io.parse_scenario_string(LINE_STEADY.format(tau=0.1, s=0.4) + '[sweep]\nparameter = "pair.s"\nvalues = [0.3, 2]\ncolumn = "s_swept"\n')
    # pair.s's default column is the case column s: the reader asks for another name
    with pytest.raises(ValueError, match=r'^sweep.column = "s": clashes with a column of the same name; give sweep.column another name$'):
        bristle.io.parse_scenario_string(LINE_STEADY.format(tau=0.1, s=0.4) + '[sweep]\nparameter = "pair.s"\nvalues = [0.3]\n')


def test_anything_else_is_a_type_error():
    with pytest.raises(TypeError, match=r"^scenario: expected a LumpedScenario or a Scenario \(load_scenario\), got str$"):
        bristle.get("law.mu_s", "law.mu_s")


def test_set_is_refused_while_the_scenario_runs(examples):
    # set() rebuilds the cases that run() goes through with the GIL released: a line_transient study set from its
    # own progress callback crashed (SIGSEGV or std::bad_alloc), a lumped one ran its later cases with the new value.
    sc = bristle.load_scenario(str(examples / "lugre_breakaway.toml"))
    seen = []

    def progress(p):
        with pytest.raises(RuntimeError, match=r"^bristle\.set: the scenario is running "):
            bristle.set(sc, "law.mu_s", 2.0)
        with pytest.raises(RuntimeError, match=r"^bristle\.set: the scenario is running "):
            bristle.set(sc.cases[-1], "law.mu_s", 2.0)  # a case is a view into the study
        seen.append(bristle.get(sc, "law.mu_s"))  # get reads, and is allowed

    before = bristle.get(sc, "law.mu_s")
    sc.run(progress=progress)
    assert seen and set(seen) == {before}
    bristle.set(sc, "law.mu_s", 2.0)  # after the run: as before
    assert bristle.get(sc, "law.mu_s") == 2.0


def test_set_refuses_a_bool_as_the_reader_does():
    # helper-44: set(c, "bench.mass_kg", True) stored 1.0; the reader refuses `mass_kg = true`.
    c = io.parse_lumped_string(LUMPED)[0]
    with pytest.raises(TypeError, match=r"^bristle.set: law.mu_s = True: expected a number, got bool$"):
        bristle.set(c, "law.mu_s", True)
    with pytest.raises(TypeError, match=r"^bristle.set: law.mu_s: expected a number, got str$"):
        bristle.set(c, "law.mu_s", "1.0")
    with pytest.raises(TypeError, match=r"^bristle.set: law.mu_s: expected a number, got an array \(ndarray\)$"):
        bristle.set(c, "law.mu_s", np.array([2.0]))
    # The schema classes' keywords and attributes: the same rule (number_arg, python/src/common.hpp).
    with pytest.raises(TypeError, match=r"^law.mu_s = True: expected a number, got bool$"):
        bristle.LawParams(type="lugre", mu_s=np.True_)
    bristle.set(c, "law.mu_s", np.float64(1.3))
    bristle.set(c, "law.mu_d", np.int64(1))
    assert (bristle.get(c, "law.mu_s"), bristle.get(c, "law.mu_d")) == (1.3, 1.0)


def test_a_scenario_text_has_the_file_limit():
    # helper-44: a 40 MB text (a sweep of 1e7 values) took 10.6 s and 1.5 GB before its list limit refused it; the
    # CLI refuses the same file at once (4 MiB).
    text = LUMPED + "[sweep]\nparameter = \"law.mu_d\"\nvalues = [" + "0.5, " * 1_000_000 + "0.5]\n"
    with pytest.raises(bristle.InvalidInput, match=r"^<string>: the scenario text is 4\.8 MiB, larger than the limit "
                                                   r"of 4 MiB \(Limits in docs/scenarios.md\)$"):
        bristle.parse_scenario_string(text)


PATCH_TRANSIENT = """
kind = "patch_transient"
[law]
type = "frbd"
mu_s = 1.2
mu_d = 0.7
v_s = 3.49
[body1]
type = "elastic"
k0 = 240.0
[body2]
type = "elastic"
[pair]
s = 0.4
[patch]
shape = "rectangle"
length_m = 0.1
width_m = 0.05
normal_load_N = 3000.0
nx = 8
ny = 4
[kinematics]
mode = "rolling"
Vr_mps = 16.0
vx_mps = 0.5
[time]
t_end_s = 0.06
[sweep]
parameter = "time.output_dt_s"
values = [0.001, 0.002]
"""


def test_a_set_that_moves_a_derived_swept_value_on_the_file_is_not_the_swept_key():
    # helper-45: the swept parameter was compared on the file, where it may be derived from the key set (here
    # time.output_dt_s from t_end_s), before the sweep replaces it: set(t_end_s) was refused, the file with it valid.
    s = bristle.parse_scenario_string(PATCH_TRANSIENT)
    bristle.set(s, "time.t_end_s", 0.05)
    assert bristle.get(s, "time.t_end_s") == 0.05
    assert s.case_count == 2
    with pytest.raises(ValueError, match=r"^time\.output_dt_s: is the parameter of the sweep"):
        bristle.set(s, "time.output_dt_s", 0.003)


def test_every_numeric_key_of_every_example_reads_back_what_it_holds(examples):
    # helper-53: numeric_keys lists what get and set take, and set(get(k)) changes nothing. A ramp that never ends
    # (t_end not given) read as 1e+300, which set refused ("magnitude above 1e+150"); it reads inf now.
    for path in sorted(examples.glob("*.toml")):
        if path.name.startswith("fit_"):
            continue
        sc = bristle.load_scenario(str(path))
        for key in bristle.numeric_keys(sc):
            try:
                value = bristle.get(sc, key)
            except bristle.InvalidInput as e:  # a study's cases differ there: read per case, documented
                assert "differs between the" in str(e), (path.name, key, str(e))
                continue
            bristle.set(sc, key, value)
            got = bristle.get(sc, key)
            assert got == value or (math.isnan(got) and math.isnan(value)), (path.name, key, value, got)
    sc = bristle.load_scenario(str(examples / "lugre_breakaway.toml"))
    assert bristle.get(sc, "bench.input.t_end") == math.inf


def test_a_fit_scenario_is_not_loaded_as_a_scenario_to_run(examples):
    # It said: unknown key "fit"; did you mean "kind"? (helper-53)
    for load in (lambda: bristle.load_scenario(str(examples / "fit_seal.toml")),
                 lambda: bristle.parse_scenario_string((examples / "fit_seal.toml").read_text())):
        with pytest.raises(bristle.InvalidInput, match=r"^\[fit\]: a fit scenario is read by `bristle fit` "
                                                       r"\(Python: bristle\.fit\), not as a scenario to run"):
            load()


def test_a_bare_vector_key_is_read_only_without_a_y_component():
    # helper-53: get("bench.x0_m") read x alone; setting it back made x0_m (x, 0), as the TOML number form writes.
    study = bristle.parse_scenario_string(LUMPED.replace('normal_load_N = 20\n', 'normal_load_N = 20\nx0_m = [0.1, 0.2]\n'))
    with pytest.raises(bristle.InvalidInput, match=r"^bench\.x0_m = \[0\.1, 0\.2\]: is a vector with a y component"):
        bristle.get(study, "bench.x0_m")
    assert bristle.get(study, "bench.x0_m[1]") == 0.2
