#pragma once
// libedit's readline-compatible API (https://thrysoee.dk/editline/, Debian libedit-dev), and the
// few settings the wizard needs, set here so Swift never touches libedit's global variables.
#include <stdio.h>
#include <locale.h>
#include <langinfo.h>
#include <string.h>
#include <editline/readline.h>

/// Completion that finds nothing: the questions other than a file's path complete nothing.
static inline char **petspot_edit_complete_nothing(const char *text, int start, int end) {
    (void)text; (void)start; (void)end;
    rl_attempted_completion_over = 1;
    return NULL;
}

/// Prepares libedit once per process: a UTF-8 character type (libedit misreads, and may crash
/// on, multibyte input in the "C" locale), prompts and echo on stderr (stdout keeps only the
/// command's result), no signal handlers of its own (the command's SIGINT handling stays in
/// charge), `petspot` as the program name for ~/.editrc.
/// Returns 0, or -1 when no UTF-8 character type is available (then use plain reads).
static inline int petspot_edit_begin(void) {
    const char *codeset;
    if (setlocale(LC_CTYPE, "") == NULL || strcmp(nl_langinfo(CODESET), "UTF-8") != 0) {
        if (setlocale(LC_CTYPE, "C.UTF-8") == NULL && setlocale(LC_CTYPE, "en_US.UTF-8") == NULL) {
            setlocale(LC_CTYPE, "C");
            return -1;
        }
    }
    codeset = nl_langinfo(CODESET);
    if (strcmp(codeset, "UTF-8") != 0) {
        setlocale(LC_CTYPE, "C");
        return -1;
    }
    rl_readline_name = "petspot";
    rl_instream = stdin;
    rl_outstream = stderr;
    rl_catch_signals = 0;
    rl_attempted_completion_function = petspot_edit_complete_nothing;
    return rl_initialize() == 0 ? 0 : -1;
}

/// Whether Tab completes file names (1) or nothing (0) for the next line read.
static inline void petspot_edit_complete_file_names(int enabled) {
    rl_attempted_completion_function = enabled ? NULL : petspot_edit_complete_nothing;
}
