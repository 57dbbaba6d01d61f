/* entry_key.c - an archive entry's cache key (loader.h), which the loader
 * and the model.cfg beside an entry (modelcfg.c) both name. */
#include <stdio.h>

#include "loader.h"

void rtm_loader_entry_key(char key[RTM_KEY_MAX], const char *archive, size_t archive_len,
                          const char *entry)
{
    snprintf(key, RTM_KEY_MAX, "%.*s/%s", (int)archive_len, archive, entry);
}
