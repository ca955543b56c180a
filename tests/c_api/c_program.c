/* A plain C program on bristle/c_api.h (built as C11 by tests/CMakeLists.txt, run by ctest as
 * c_api_program): textbook LuGre stepped at 1 kHz to its steady force, state get/set, error codes and
 * texts, and calls on a destroyed handle. Exit status 0 when every check holds. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bristle/c_api.h"

static int failures = 0;

#define CHECK(cond)                                                 \
  do {                                                              \
    if (!(cond)) {                                                  \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
      ++failures;                                                   \
    }                                                               \
  } while (0)

int main(void) {
  bristle_contact h = 0;
  CHECK(bristle_contact_create_lugre(1.0, 1.5, 1e-3, 1e5, sqrt(1e5), 0.4, 2.0, &h) == BRISTLE_OK);
  CHECK(h != 0);
  double F = 0.0;
  for (int i = 0; i < 1000; ++i) CHECK(bristle_contact_step(h, 1e-3, 1e-3, &F) == BRISTLE_OK);
  /* Fc + (Fs - Fc) e^-1 + sigma2 v, opposing v */
  const double expected = 1.0 + 0.5 * exp(-1.0) + 0.4e-3;
  CHECK(fabs(F + expected) < 1e-12);
  printf("steady LuGre force at 1 mm/s: %.12f N (textbook %.12f N)\n", F, -expected);

  int size = 0;
  CHECK(bristle_contact_state_size(h, &size) == BRISTLE_OK && size == 2);
  double u[2] = {0.0, 0.0};
  CHECK(bristle_contact_get_state(h, u, 2) == BRISTLE_OK);
  CHECK(fabs(u[0] + expected - 0.4e-3) < 1e-12); /* the bristle force f = F - sigma2 v terms (sigma1 z' = 0) */
  double t = 0.0, W = 0.0, supplied = 0.0, dissipated = 0.0;
  CHECK(bristle_contact_energies(h, &t, &W, &supplied, &dissipated) == BRISTLE_OK);
  CHECK(fabs(t - 1.0) < 1e-12);
  CHECK(fabs(W - 0.5 * u[0] * u[0] / 1e5) < 1e-18); /* F_z = 1 N: W = f^2 / (2 k0) */
  CHECK(supplied > 0.0 && dissipated > 0.0);

  /* Energy tracking off: the same force, the energies NaN until reset. */
  int on = 0;
  CHECK(bristle_contact_energy_tracking(h, &on) == BRISTLE_OK && on == 1);
  CHECK(bristle_contact_set_energy_tracking(h, 0) == BRISTLE_OK);
  CHECK(bristle_contact_energy_tracking(h, &on) == BRISTLE_OK && on == 0);
  double F_untracked = 0.0;
  CHECK(bristle_contact_step(h, 1e-3, 1e-3, &F_untracked) == BRISTLE_OK);
  CHECK(fabs(F_untracked + expected) < 1e-12);
  CHECK(bristle_contact_energies(h, NULL, NULL, &supplied, &dissipated) == BRISTLE_OK);
  CHECK(isnan(supplied) && isnan(dissipated));
  CHECK(bristle_contact_set_energy_tracking(h, 1) == BRISTLE_OK);
  CHECK(bristle_contact_energy_tracking(h, NULL) == BRISTLE_NULL_POINTER);

  double Fx = 0.0, Fy = 0.0;
  CHECK(bristle_contact_reset(h) == BRISTLE_OK);
  CHECK(bristle_contact_energies(h, NULL, NULL, &supplied, NULL) == BRISTLE_OK && supplied == 0.0);
  for (int i = 0; i < 1000; ++i) CHECK(bristle_contact_step_2d(h, 1e-3, 0.0, -1e-3, &Fx, &Fy) == BRISTLE_OK);
  CHECK(fabs(Fx) < 1e-15 && fabs(Fy - expected) < 1e-12);

  /* Bad input: a code and a text naming the argument; the state is unchanged. */
  CHECK(bristle_contact_step(h, -1e-3, 1e-3, &F) == BRISTLE_INVALID_INPUT);
  CHECK(strcmp(bristle_last_error(), "dt_s = -0.001: must be > 0") == 0);
  CHECK(bristle_contact_step(h, 1e-3, NAN, &F) == BRISTLE_INVALID_INPUT);
  CHECK(strcmp(bristle_last_error(), "v_mps = nan: must be finite") == 0);
  CHECK(bristle_contact_step(h, 1e-3, 1e-3, NULL) == BRISTLE_NULL_POINTER);
  CHECK(bristle_contact_get_state(h, u, 3) == BRISTLE_INVALID_INPUT);
  CHECK(bristle_contact_energies(h, &t, NULL, NULL, NULL) == BRISTLE_OK && fabs(t - 1.0) < 1e-12);
  bristle_contact bad = 0;
  CHECK(bristle_contact_create_lugre(-1.0, 1.5, 1e-3, 1e5, 0.0, 0.0, 2.0, &bad) == BRISTLE_INVALID_INPUT);
  CHECK(strcmp(bristle_last_error(), "Fc_N = -1: must be > 0") == 0 && bad == 0);
  CHECK(strcmp(bristle_status_name(BRISTLE_INVALID_HANDLE), "BRISTLE_INVALID_HANDLE") == 0);

  /* A destroyed handle, handle 0, and a second destroy: error codes, never a crash. */
  CHECK(bristle_contact_destroy(h) == BRISTLE_OK);
  CHECK(bristle_contact_step(h, 1e-3, 1e-3, &F) == BRISTLE_INVALID_HANDLE);
  printf("step on a destroyed handle: %s: %s\n", bristle_status_name(BRISTLE_INVALID_HANDLE), bristle_last_error());
  CHECK(strstr(bristle_last_error(), "is not a live contact") != NULL);
  CHECK(bristle_contact_destroy(h) == BRISTLE_INVALID_HANDLE);
  CHECK(bristle_contact_reset(0) == BRISTLE_INVALID_HANDLE);
  CHECK(bristle_contact_set_energy_tracking(h, 0) == BRISTLE_INVALID_HANDLE);
  CHECK(bristle_contact_energy_tracking(h, &on) == BRISTLE_INVALID_HANDLE);
  bristle_contact d = 0;
  CHECK(bristle_contact_create_dahl(2.0, 1e4, &d) == BRISTLE_OK && d != h); /* ids are never reused */
  for (int i = 0; i < 2000; ++i) bristle_contact_step(d, 1e-3, 1e-2, &F);
  CHECK(fabs(F + 2.0) < 1e-12);
  CHECK(bristle_contact_destroy(d) == BRISTLE_OK);

  if (failures) fprintf(stderr, "%d checks failed\n", failures);
  return failures ? 1 : 0;
}
