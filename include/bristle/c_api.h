/* bristle C API: a friction element (bristle::contact::Contact) for C callers — Simulink S-functions,
 * Modelica external functions, a later FMU. Plain C (C99 and later, and C++); every function returns a
 * status code; no C++ exception crosses this boundary.
 *
 *   bristle_contact h;
 *   if (bristle_contact_create_lugre(1.0, 1.5, 1e-3, 1e5, 316.2, 0.4, 2.0, &h) != BRISTLE_OK)
 *     fprintf(stderr, "%s\n", bristle_last_error());
 *   double F_N;
 *   for (int i = 0; i < 1000; ++i) bristle_contact_step(h, 1e-3, v_mps, &F_N);   // at 1 kHz
 *   bristle_contact_destroy(h);
 *
 * Handles are registry ids, never pointers: an id is never reused, so a call on a destroyed (or never
 * created, or 0) handle returns BRISTLE_INVALID_HANDLE and is never undefined behaviour. Calls on
 * different handles may run in parallel; calls on one handle must not (one contact, one thread).
 * Destroying a handle while another thread steps it is safe (the contact lives until that step ends).
 *
 * Units and sign convention as bristle::contact::Contact (include/bristle/contact/contact.hpp): forces
 * in N on the upper (moving) body, opposing v_mps (negative for v_mps > 0 at steady sliding); the
 * textbook LuGre force of Canudas de Wit et al. (1995) is -F. Textbook parameters: Fc_N, Fs_N (N),
 * vs_mps (m/s), sigma0_N_per_m (N/m), sigma1_Ns_per_m, sigma2_Ns_per_m (Ns/m), delta (-).
 */
#ifndef BRISTLE_C_API_H
#define BRISTLE_C_API_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** A contact handle; 0 is never a valid handle. */
typedef uint64_t bristle_contact;

/** Status codes of every call. */
typedef enum bristle_status {
  BRISTLE_OK = 0,
  BRISTLE_INVALID_INPUT = 1,   /* a bad argument (message names it, its value and the rule) */
  BRISTLE_SOLVER_ERROR = 2,    /* the implicit stages did not converge; the state is unchanged */
  BRISTLE_INVALID_HANDLE = 3,  /* 0, destroyed or never created */
  BRISTLE_NULL_POINTER = 4,    /* a required output pointer is NULL */
  BRISTLE_INTERNAL_ERROR = 5   /* anything else (e.g. out of memory) */
} bristle_status;

/** Text of the last failed call on this thread ("" if none failed yet); valid until the next failing call
 *  on this thread. */
const char* bristle_last_error(void);
/** "BRISTLE_OK", "BRISTLE_INVALID_INPUT", ...; "unknown status" for other values. */
const char* bristle_status_name(int status);

/** Textbook LuGre (Canudas de Wit et al. 1995), delta the Stribeck exponent (2 in the paper). */
int bristle_contact_create_lugre(double Fc_N, double Fs_N, double vs_mps, double sigma0_N_per_m,
                                 double sigma1_Ns_per_m, double sigma2_Ns_per_m, double delta,
                                 bristle_contact* out);
/** Textbook Dahl: z' = v - sigma0 |v| z / Fc, F_tb = sigma0 z. */
int bristle_contact_create_dahl(double Fc_N, double sigma0_N_per_m, bristle_contact* out);
/** Destroys the contact; the handle is invalid afterwards (a second destroy returns BRISTLE_INVALID_HANDLE). */
int bristle_contact_destroy(bristle_contact handle);

/** Advances over dt_s (s, > 0) at the constant velocity v_mps (m/s, along x); *F_N = friction force (N). */
int bristle_contact_step(bristle_contact handle, double dt_s, double v_mps, double* F_N);
/** The same with a 2-D velocity (vx, vy) and force (*Fx_N, *Fy_N). */
int bristle_contact_step_2d(bristle_contact handle, double dt_s, double vx_mps, double vy_mps, double* Fx_N,
                            double* Fy_N);
/** Back to the relaxed state at time 0, energies 0. */
int bristle_contact_reset(bristle_contact handle);

/** Number of entries of the contact state u. */
int bristle_contact_state_size(bristle_contact handle, int* size);
/** Copies u into `u` (`size` entries, which must equal the state size). */
int bristle_contact_get_state(bristle_contact handle, double* u, int size);
/** Sets u from `u` (`size` entries, the state size, finite). */
int bristle_contact_set_state(bristle_contact handle, const double* u, int size);
/** Time (s) since reset and the energies (J): stored, supplied and dissipated (any pointer may be NULL). */
int bristle_contact_energies(bristle_contact handle, double* time_s, double* stored_J, double* supplied_J,
                             double* dissipated_J);

/** Whether steps integrate the supplied and dissipated energies (on = nonzero, the default). Off, a step
 *  skips them (the state and force are the same) and both read NaN in bristle_contact_energies until
 *  bristle_contact_reset (Contact::set_energy_tracking). */
int bristle_contact_set_energy_tracking(bristle_contact handle, int on);
/** *on = 1 if the energies are tracked, else 0. */
int bristle_contact_energy_tracking(bristle_contact handle, int* on);

#ifdef __cplusplus
}
#endif

#endif /* BRISTLE_C_API_H */
