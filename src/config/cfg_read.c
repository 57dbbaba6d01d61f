/* cfg_read.c - a config's bytes to the model: the rapified reader (rap.c)
 * or the text parser (cfg_text.c), by the first bytes.  A file of its own
 * above both readers, which share only the model's builder (config.c). */
#include "config.h"

int cfg_read(const uint8_t *data, size_t len, const char *name, struct cfg **out,
             struct rtm_error *err)
{
    if (rap_is_rapified(data, len))
        return rap_read(data, len, out, err);
    return cfg_parse_text((const char *)data, len, name, NULL, out, err);
}
