/* The width profile of the terminal this process runs in, as the Measure option `terminal`
 * names it (protocol/README.md): "grapheme" (one width per grapheme cluster) or "wcwidth"
 * (every code point's wcwidth added up). Decided as fitctl and the Python package decide
 * (Sources/FitTypes/TerminalOptions.swift, TerminalProfile.detect; clients/python/src/fitd/
 * terminal.py, whose rules and probe this follows step for step):
 *
 * 1. the environment: TERM_PROGRAM (tmux by TERM_PROGRAM_VERSION, WezTerm, Ghostty), then
 *    TERM (kitty, Ghostty, WezTerm, foot: grapheme; Alacritty, screen, tmux without its
 *    version: wcwidth);
 * 2. where it names no known terminal (VTE, Konsole and xterm all say xterm-256color) and
 *    the process is in the foreground of a controlling terminal, a query bounded by 0.1 s:
 *    three clusters on which the profiles differ (a ZWJ sequence, a skin tone, a VS16 emoji)
 *    written between cursor position reports (DSR 6 / CPR, ECMA-48 8.3.14) and erased again;
 *    the profile whose widths the cursor moved by for most of them wins; else the answer to
 *    DECRQM for mode 2027, grapheme clustering (contour's terminal-unicode-core): set or
 *    permanently set is grapheme, anything else wcwidth; DA1 ends the replies (terminals
 *    answer in order);
 * 3. otherwise none: calls leave the option out and the daemon uses its default. */
#define _POSIX_C_SOURCE 200809L /* O_CLOEXEC, under meson's -std=c11 */
#define FIT_CLIENT_COMPILATION
#include "fit-client.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#define QUERY_TIMEOUT_US (100 * 1000)
/* Replies are outside input: at most this many bytes are read. */
#define MAX_REPLY_BYTES 512

typedef struct
{
  const char *cluster;
  int grapheme, wcwidth; /* the cells each profile gives it */
} Probe;

/* protocol/README.md's `terminal` row: 👩‍💻 2 or 4, 👍🏽 2 or 4, ❤️ 2 or 1. */
static const Probe probes[] = {
  { "\xF0\x9F\x91\xA9\xE2\x80\x8D\xF0\x9F\x92\xBB", 2, 4 },
  { "\xF0\x9F\x91\x8D\xF0\x9F\x8F\xBD", 2, 4 },
  { "\xE2\x9D\xA4\xEF\xB8\x8F", 2, 1 },
};

/* Whether a tmux version ("3.4", "3.5a", "next-3.6") is 3.4 or later: from 3.4 tmux joins
 * ZWJ sequences, skin tones and flags into one cell (tmuxJoinsClusters in Swift). */
static gboolean
tmux_joins_clusters (const char *version)
{
  while (*version != '\0' && !g_ascii_isdigit (*version))
    version++;
  if (*version == '\0')
    return FALSE;
  char *end;
  guint64 major = g_ascii_strtoull (version, &end, 10);
  guint64 minor = 0;
  if (*end == '.' && g_ascii_isdigit (end[1]))
    minor = g_ascii_strtoull (end + 1, NULL, 10);
  return major > 3 || (major == 3 && minor >= 4);
}

static const char *
from_environment (char **reason)
{
  g_autofree char *program = g_ascii_strdown (g_getenv ("TERM_PROGRAM") ? g_getenv ("TERM_PROGRAM") : "", -1);
  if (g_str_equal (program, "tmux"))
    {
      const char *version = g_getenv ("TERM_PROGRAM_VERSION");
      if (version != NULL && tmux_joins_clusters (version))
        {
          *reason = g_strdup_printf ("TERM_PROGRAM=tmux %s: tmux ≥ 3.4 joins emoji clusters", version);
          return "grapheme";
        }
      *reason = g_strdup_printf ("TERM_PROGRAM=tmux %s: tmux before 3.4 adds up wcwidths",
                                 version != NULL && *version != '\0' ? version : "(no TERM_PROGRAM_VERSION)");
      return "wcwidth";
    }
  if (g_str_equal (program, "wezterm") || g_str_equal (program, "ghostty"))
    {
      *reason = g_strdup_printf ("TERM_PROGRAM=%s", g_getenv ("TERM_PROGRAM"));
      return "grapheme";
    }
  const char *given = g_getenv ("TERM");
  if (given == NULL)
    return NULL;
  g_autofree char *term = g_ascii_strdown (given, -1);
  const char *profile = NULL;
  if (g_str_equal (term, "xterm-kitty") || g_str_equal (term, "xterm-ghostty") || g_str_equal (term, "wezterm")
      || g_str_equal (term, "foot") || g_str_has_prefix (term, "foot-"))
    profile = "grapheme";
  else if (g_str_equal (term, "alacritty") || g_str_has_prefix (term, "alacritty-") || g_str_has_prefix (term, "screen"))
    profile = "wcwidth";
  else if (g_str_has_prefix (term, "tmux"))
    {
      *reason = g_strdup_printf ("TERM=%s without TERM_PROGRAM: tmux of unknown version", given);
      return "wcwidth";
    }
  if (profile != NULL)
    *reason = g_strdup_printf ("TERM=%s", given);
  return profile;
}

static gboolean
write_all (int fd, const char *data, gsize length)
{
  while (length > 0)
    {
      gssize wrote = write (fd, data, length);
      if (wrote < 0 && errno == EINTR)
        continue;
      if (wrote <= 0)
        return FALSE;
      data += wrote;
      length -= (gsize) wrote;
    }
  return TRUE;
}

/* Reads the terminal's replies until its DA1 answer or the deadline; at most MAX_REPLY_BYTES. */
static GByteArray *
read_replies (int fd, gint64 deadline, GRegex *da1)
{
  GByteArray *data = g_byte_array_new ();
  while (data->len < MAX_REPLY_BYTES)
    {
      if (data->len > 0 && g_regex_match_full (da1, (const char *) data->data, data->len, 0, 0, NULL, NULL))
        break;
      gint64 left = deadline - g_get_monotonic_time ();
      if (left <= 0)
        break;
      struct pollfd ready = { fd, POLLIN, 0 };
      int got = poll (&ready, 1, (int) MAX (1, left / 1000));
      if (got < 0 && errno == EINTR)
        continue;
      if (got <= 0)
        break;
      guint8 chunk[MAX_REPLY_BYTES];
      gssize n = read (fd, chunk, MAX_REPLY_BYTES - data->len);
      if (n < 0 && (errno == EINTR || errno == EAGAIN))
        continue;
      if (n <= 0)
        break;
      g_byte_array_append (data, chunk, (guint) n);
    }
  return data;
}

typedef struct
{
  int cells[G_N_ELEMENTS (probes)];
  gboolean have_cells;
  int mode; /* DECRQM 2027's Ps, -1 when not answered */
} Answers;

/* Asks the terminal on fd; FALSE with a reason when it cannot be asked. */
static gboolean
query (int fd, Answers *answers, char **reason)
{
  answers->have_cells = FALSE;
  answers->mode = -1;
  /* A background job that touches its terminal's modes is stopped by SIGTTOU. */
  if (tcgetpgrp (fd) != getpgrp ())
    {
      *reason = g_strdup ("not in the terminal's foreground process group");
      return FALSE;
    }
  struct termios saved, raw;
  if (tcgetattr (fd, &saved) != 0)
    {
      *reason = g_strdup_printf ("cannot read the terminal's modes: %s", g_strerror (errno));
      return FALSE;
    }
  raw = saved;
  raw.c_lflag &= ~(tcflag_t) (ICANON | ECHO); /* replies byte by byte, never echoed */
  raw.c_cc[VMIN] = 0;
  raw.c_cc[VTIME] = 0;
  if (tcsetattr (fd, TCSANOW, &raw) != 0)
    {
      *reason = g_strdup_printf ("cannot set the terminal's modes: %s", g_strerror (errno));
      return FALSE;
    }
  /* DECSC, CPR, each cluster and a CPR after it, DECRQM 2027, DA1. */
  GString *probe = g_string_new ("\0337\033[6n");
  for (guint i = 0; i < G_N_ELEMENTS (probes); i++)
    g_string_append_printf (probe, "%s\033[6n", probes[i].cluster);
  g_string_append (probe, "\033[?2027$p\033[c");
  gboolean ok = write_all (fd, probe->str, probe->len);
  g_string_free (probe, TRUE);
  if (ok)
    {
      g_autoptr (GRegex) cpr = g_regex_new ("\\x1b\\[(\\d{1,5});(\\d{1,5})R", G_REGEX_RAW, 0, NULL);
      g_autoptr (GRegex) decrpm = g_regex_new ("\\x1b\\[\\?2027;(\\d{1,3})\\$y", G_REGEX_RAW, 0, NULL);
      g_autoptr (GRegex) da1 = g_regex_new ("\\x1b\\[\\?[\\d;]{0,64}c", G_REGEX_RAW, 0, NULL);
      g_autoptr (GByteArray) replies = read_replies (fd, g_get_monotonic_time () + QUERY_TIMEOUT_US, da1);
      /* Positions: the one before the clusters and one after each, all on one row. */
      int rows[G_N_ELEMENTS (probes) + 1], columns[G_N_ELEMENTS (probes) + 1];
      guint found = 0;
      gboolean one_row = TRUE;
      g_autoptr (GMatchInfo) match = NULL;
      g_regex_match_full (cpr, (const char *) replies->data, replies->len, 0, 0, &match, NULL);
      for (; g_match_info_matches (match); g_match_info_next (match, NULL), found++)
        {
          if (found == G_N_ELEMENTS (rows))
            {
              found++;
              break;
            }
          g_autofree char *row = g_match_info_fetch (match, 1), *column = g_match_info_fetch (match, 2);
          rows[found] = atoi (row);
          columns[found] = atoi (column);
          one_row = one_row && rows[found] == rows[0];
        }
      int moved = 0;
      if (found == G_N_ELEMENTS (rows) && one_row)
        {
          answers->have_cells = TRUE;
          for (guint i = 0; i < G_N_ELEMENTS (probes); i++)
            moved += answers->cells[i] = columns[i + 1] - columns[i];
        }
      g_autoptr (GMatchInfo) mode = NULL;
      if (g_regex_match_full (decrpm, (const char *) replies->data, replies->len, 0, 0, &mode, NULL))
        {
          g_autofree char *ps = g_match_info_fetch (mode, 1);
          answers->mode = atoi (ps);
        }
      /* DECRC, blanks over what the probe drew (a wrapped or unanswered probe: to the end of
       * the line), DECRC again: the screen as it was, the cursor back. */
      GString *erase = g_string_new ("\0338");
      if (answers->have_cells && moved >= 0 && moved <= 16)
        for (int i = 0; i < moved; i++)
          g_string_append_c (erase, ' ');
      else
        g_string_append (erase, "\033[K");
      g_string_append (erase, "\0338");
      write_all (fd, erase->str, erase->len);
      g_string_free (erase, TRUE);
    }
  else
    *reason = g_strdup_printf ("querying the terminal: %s", g_strerror (errno));
  /* TCSAFLUSH: a reply that came after the deadline is dropped, not read as keys. */
  tcsetattr (fd, TCSAFLUSH, &saved);
  return ok;
}

static const char *
from_answers (const Answers *answers, char **reason)
{
  if (answers->have_cells)
    {
      guint grapheme = 0, wcwidth = 0;
      for (guint i = 0; i < G_N_ELEMENTS (probes); i++)
        {
          grapheme += probes[i].grapheme == answers->cells[i];
          wcwidth += probes[i].wcwidth == answers->cells[i];
        }
      if (grapheme != wcwidth)
        {
          const char *best = grapheme > wcwidth ? "grapheme" : "wcwidth";
          guint votes = MAX (grapheme, wcwidth);
          GString *moved = g_string_new (NULL);
          for (guint i = 0; i < G_N_ELEMENTS (probes); i++)
            g_string_append_printf (moved, "%s%s %d", i > 0 ? ", " : "", probes[i].cluster, answers->cells[i]);
          *reason = g_strdup_printf ("the cursor moved %s cells: %s's widths for %u of %u%s", moved->str, best, votes,
                                     (guint) G_N_ELEMENTS (probes),
                                     votes == G_N_ELEMENTS (probes) ? "" : "; no profile is exact for this terminal");
          g_string_free (moved, TRUE);
          return best;
        }
    }
  /* Ps (DECRPM, VT510; terminal-unicode-core): 1 set, 3 permanently set; 2 reset, 4
   * permanently reset, 0 not recognised. A reset mode is supported but off: the terminal
   * adds up wcwidths until a program turns it on, which this library does not do. */
  if (answers->mode >= 0 && answers->mode <= 4)
    {
      *reason = g_strdup_printf ("DECRQM mode 2027 answered %d", answers->mode);
      return answers->mode == 1 || answers->mode == 3 ? "grapheme" : "wcwidth";
    }
  return NULL;
}

static const char *
detect (char **reason)
{
  const char *profile = from_environment (reason);
  if (profile != NULL)
    return profile;
  int fd = open ("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC);
  if (fd < 0)
    {
      /* ENXIO: no controlling terminal (a service, a pipe, setsid). */
      *reason = g_strdup_printf ("the environment names no known terminal; %s",
                                 errno == ENXIO ? "no controlling terminal" : g_strerror (errno));
      return NULL;
    }
  Answers answers;
  g_autofree char *why = NULL;
  if (!query (fd, &answers, &why))
    {
      close (fd);
      *reason = g_strdup_printf ("the environment names no known terminal; %s", why);
      return NULL;
    }
  close (fd);
  profile = from_answers (&answers, reason);
  if (profile == NULL)
    *reason = g_strdup_printf ("the environment names no known terminal and the terminal did not answer within %g s",
                               QUERY_TIMEOUT_US / 1e6);
  return profile;
}

/**
 * fit_client_terminal_profile:
 * @reason: (out) (optional) (transfer none): why, in words ("TERM=xterm-kitty", "the cursor
 *   moved … cells: grapheme's widths for 3 of 3", "… no controlling terminal")
 *
 * The width profile of the terminal this process runs in, as the Measure option `terminal`
 * names it, decided on the first call and kept for the process: from the environment by
 * fitctl's rules, else, when the process is in the foreground of a controlling terminal, by
 * asking the terminal (a cursor-position probe of three emoji clusters, erased again, then
 * DECRQM 2027; 0.1 s at most). fit_client_measure() sends it with `unit` `cells` when the
 * options name no `terminal`.
 *
 * Returns: (nullable) (transfer none): "grapheme", "wcwidth", or %NULL where nothing tells
 *   (the daemon's default, grapheme, applies)
 */
const char *
fit_client_terminal_profile (const char **reason)
{
  static const char *profile;
  static char *why;
  static gsize decided = 0;
  if (g_once_init_enter (&decided))
    {
      profile = detect (&why);
      g_once_init_leave (&decided, 1);
    }
  if (reason != NULL)
    *reason = why;
  return profile;
}
