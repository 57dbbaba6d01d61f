/* rtmcat_config.h - rtmcat on rapified configs and --raw (rtmcat_config.c). */
#ifndef RTM_RTMCAT_CONFIG_H
#define RTM_RTMCAT_CONFIG_H

#include <stddef.h>
#include <stdint.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/stat.h>

#include "cache.h"

/* The help's paragraph on configs and --raw. */
void rtmcat_config_usage(FILE *f);

/* A file rtmcat found outside the tree's views: rel, below folder srcfd
 * (loose), or the archive entry key (archive_len > 0: key as the cache
 * names it, st the archive's stat).  With raw, its bytes as they are.
 * Else, when cfg_is_candidate_name() takes its name and its bytes are
 * rapified, its text (cfg_print_text), and a VIEW is refused: a rapified
 * config has no other view.  Messages are one line naming file (FILE as
 * given; file[0, dlen) is the folder loader messages are relative to).
 * rtmcat's exit status, or -1 when the file is no rapified config and raw
 * is not set (rtmcat then reads it as an animation, as before). */
int rtmcat_config_loose(int srcfd, const char *rel, const char *file, const char *view,
                        int raw);
int rtmcat_config_entry(struct rtmc *cache, const char *key, size_t archive_len,
                        const struct stat *st, const char *file, size_t dlen,
                        const char *view, int raw);

/* All of fd into *data (malloc'd, with a byte to spare): 0 or an errno. */
int rtmcat_read_fd(int fd, uint8_t **data, size_t *len);
/* len bytes to stdout: 0, or 1 (rtmcat's exit status) after saying why. */
int rtmcat_write_out(const void *data, size_t len);
/* len bytes to fd, through short writes and EINTR: 0 or a negative errno. */
int rtmcat_write_fd(int fd, const void *data, size_t len);
/* rtmcat's message, one line on stderr, "rtmcat: FILE: what is wrong":
 * 1, rtmcat's exit status then. */
__attribute__((format(printf, 2, 0)))
int rtmcat_vfailf(const char *file, const char *fmt, va_list ap);
__attribute__((format(printf, 2, 3)))
int rtmcat_failf(const char *file, const char *fmt, ...);
/* The message for a VIEW that FILE does not have: 1. */
int rtmcat_fail_no_view(const char *file, const char *view);

#endif
