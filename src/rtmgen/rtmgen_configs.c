/* rtmgen_configs.c - the config.bin of each -I archive (rtmgen.h): states
 * that play its animations as real mods' configs do, and the weapons and
 * units around them that make most of a real config's bytes, rapified by
 * the project's writer, for the whole-install benchmarks and the tests of
 * states, timing and missing.txt.
 *
 * What a config holds:
 *  - CfgPatches: one class, its units, weapons and requiredAddons;
 *  - CfgMovesBasic: ManActions and an Actions class for its states;
 *  - CfgMovesMaleSdr/States and CfgGesturesMale/States (gestures: the
 *    entries under gestures\): a state for most animations, its file the
 *    animation's game path (\PREFIX\ENTRY); a few name another archive's
 *    animation or a file that exists nowhere.  Parents: a base class of the
 *    config, a class only the game defines (declared extern), an earlier
 *    state (some then play its file), another mod's state, or none.  Speeds
 *    positive, negative (seconds), 0, 100000 (a pose) or inherited;
 *  - CfgVehicles and CfgWeapons: from none to a hundred and more units and
 *    rifles (real configs run from a few kB to hundreds);
 *  - for some, the enum table BI's binariser writes.
 * It is written as text, read by cfg_parse_text (which checks it) and
 * rapified by rap_write.  Every draw comes from a generator seeded by the
 * archive's number, or from a hash of (archive, animation) where another
 * archive's config must agree: the same arguments give the same bytes. */
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "rtmgen.h"

enum { CFG_NAME = 160, CFG_PATH = 256 };  /* bytes of a class name, a game path */

struct gen {
    struct rtm_buf *t;                  /* the text */
    uint64_t rng;
    unsigned i, narchives;
    long total;
    char tag[80], prefix[128];          /* class names' start, game path */
    unsigned nunits, nrifles;
    long dep;                           /* an archive whose states some inherit, or -1 */
};

/* splitmix64's finaliser: a draw that hangs on its inputs alone. */
static uint64_t mix(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
}

static unsigned nrtm_of(const struct gen *g, unsigned j)
{
    long left = g->total - (long)j * INSTALL_RTM;
    return (unsigned)(left < INSTALL_RTM ? left : INSTALL_RTM);
}

/* One animation in 25 has no state (mods ship unused ones): decided by a
 * hash, so that a config naming another archive's state knows it is there. */
static int unused(unsigned j, unsigned m)
{
    return mix(((uint64_t)j << 32 | m) ^ 0x5DEECE66Du) % 25 == 0;
}

static void tag_of(unsigned j, char *tag, size_t n, char *prefix, size_t pn)
{
    char addon[64];
    rtmgen_archive_names(j, INSTALL_MODS, addon, sizeof addon, prefix, pn);
    snprintf(tag, n, "m%02u_%s", j % INSTALL_MODS, addon);
}

/* Archive j's state for animation m: TAG_NAME_MM; whether it is a gesture. */
static int state_name(unsigned j, unsigned m, char *out, size_t n)
{
    char path[CFG_PATH], tag[80], prefix[128];
    tag_of(j, tag, sizeof tag, prefix, sizeof prefix);
    rtmgen_install_rtm(j, m, path, sizeof path);
    const char *base = strrchr(path, '\\') + 1;
    snprintf(out, n, "%s_%.*s", tag, (int)(strlen(base) - 4), base);
    return strstr(path, "\\gestures\\") != NULL;
}

/* What state m plays: mostly its own animation (now and then spelt in
 * another case, as configs do); a few another archive's, which links the
 * two, or a file that exists nowhere, for missing.txt. */
static void state_file(struct gen *g, unsigned m, char *out, size_t n)
{
    char addon[64], prefix[128], path[CFG_PATH];
    uint32_t r = rng_range(&g->rng, 0, 99);
    unsigned j = g->i, k = m;
    if (r < 2) {
        snprintf(out, n, "\\%s\\anims\\characters\\old\\removed_%02u.rtm", g->prefix, m);
        return;
    }
    if (r < 3) {
        snprintf(out, n, "\\A3\\anims_F\\Data\\Anim\\Sdr\\mov\\erc\\stp\\ras\\rfl\\"
                 "AmovPercMstpSrasWrflDnon_%s_%02u.rtm", g->tag, m);
        return;
    }
    if (r < 7 && g->narchives > 1) {
        j = (g->i + rng_range(&g->rng, 1, g->narchives - 1)) % g->narchives;
        k = rng_range(&g->rng, 0, nrtm_of(g, j) - 1);
    }
    rtmgen_archive_names(j, INSTALL_MODS, addon, sizeof addon, prefix, sizeof prefix);
    rtmgen_install_rtm(j, k, path, sizeof path);
    if (r >= 90 && strncmp(path, "anims\\characters\\", 17) == 0)
        memcpy(path, "Anims\\Characters\\", 17);
    snprintf(out, n, "\\%s\\%s", prefix, path);
}

/* speed: most a positive rate (the animation a second), some negative (it
 * lasts that many seconds), 0 (held), now and then 100000 (a pose held at
 * once), and some none, the parent's. */
static void put_speed(struct gen *g)
{
    static const char *const TYPICAL[] = { "0.06", "0.1", "0.125", "0.2", "0.25", "0.3",
                                           "0.45", "0.5", "0.75", "1", "1.2", "1.5" };
    uint32_t r = rng_range(&g->rng, 0, 99), x;
    if (r < 40) {
        rtm_buf_printf(g->t, "speed = %s;\n",
                       TYPICAL[rng_range(&g->rng, 0, sizeof TYPICAL / sizeof *TYPICAL - 1)]);
    } else if (r < 70) {
        x = rng_range(&g->rng, 20, 1999);   /* written exactly: no double rounding */
        rtm_buf_printf(g->t, "speed = %u.%03u;\n", x / 1000, x % 1000);
    } else if (r < 84) {
        rtm_buf_printf(g->t, "speed = -%u;\n", rng_range(&g->rng, 1, 12));
    } else if (r < 87) {
        rtm_buf_printf(g->t, "speed = -%u.5;\n", rng_range(&g->rng, 0, 6));
    } else if (r < 91) {
        rtm_buf_puts(g->t, "speed = 0;\n");
    } else if (r < 93) {
        rtm_buf_puts(g->t, "speed = 100000;\n");
    }
}

/* The members a state has besides file, speed and looped: a random few. */
static void put_state_extras(struct gen *g, int gesture, const char *prev)
{
    struct rtm_buf *t = g->t;
    if (gesture) {
        static const char *const MASKS[] = { "handsWeapon", "leftHand", "rightHand",
                                             "BodyFullReal", "upperTorso" };
        rtm_buf_printf(t, "mask = \"%s\";\nheadBobStrength = 0;\n",
                       MASKS[rng_range(&g->rng, 0, 4)]);
        if (rng_range(&g->rng, 0, 1))
            rtm_buf_puts(t, "rightHandIKCurve[] = {1};\nleftHandIKCurve[] = {0, 1, 0.1, 0};\n");
        return;
    }
    static const char *const ACTIONS[] = { "RifleStandActions", "CivilStandActions",
                                           "RifleKneelActions", "RifleProneActions" };
    uint32_t r = rng_range(&g->rng, 0, 5);
    if (r < 4)
        rtm_buf_printf(t, "actions = \"%s\";\n", ACTIONS[r]);
    static const char *const DUTY[] = { "-1", "-0.5", "-0.3", "0", "0.1", "0.3", "0.5", "1" };
    /* one draw a statement: the order of a call's arguments is the compiler's */
    const char *duty = DUTY[rng_range(&g->rng, 0, 7)];
    uint32_t noweapons = rng_range(&g->rng, 0, 1);
    rtm_buf_printf(t, "duty = %s;\ndisableWeapons = %u;\ncanPullTrigger = %u;\n", duty, noweapons,
                   rng_range(&g->rng, 0, 1));
    if (prev && rng_range(&g->rng, 0, 1))
        rtm_buf_printf(t, "ConnectTo[] = {\"%s\", 0.02};\n", prev);
    rtm_buf_printf(t, "InterpolateTo[] = {\"AmovPercMstpSnonWnonDnon\", 0.02, \"%s_Base\", 0.1};\n",
                   g->tag);
    if (rng_range(&g->rng, 0, 3) == 0)
        rtm_buf_printf(t, "variantsPlayer[] = {};\nvariantsAI[] = {\"%s_Base\", 0.9, \"%s\", 0.1};\n"
                       "minPlayTime = 0.%u;\n", g->tag, prev ? prev : "AmovPercMstpSnonWnonDnon",
                       rng_range(&g->rng, 1, 9));  /* the call's only draw */
}

/* One state: its own file unless it plays its parent's (same_file). */
static void put_state(struct gen *g, unsigned m, const char *parent, int gesture,
                      int same_file, const char *prev)
{
    char name[CFG_NAME], file[CFG_PATH];
    state_name(g->i, m, name, sizeof name);
    rtm_buf_printf(g->t, "class %s%s%s\n{\n", name, parent ? " : " : "", parent ? parent : "");
    if (!same_file) {
        state_file(g, m, file, sizeof file);
        rtm_buf_printf(g->t, "file = \"%s\";\n", file);
    }
    put_speed(g);
    rtm_buf_printf(g->t, "looped = %u;\n", rng_range(&g->rng, 0, 1));
    put_state_extras(g, gesture, prev);
    rtm_buf_puts(g->t, "};\n");
}

/* The first state of the dep archive of this kind, declared extern, or ""
 * when it has none (its states are a hash's, so this config knows them). */
static void dep_parent(const struct gen *g, int gestures, char *out, size_t n)
{
    *out = 0;
    for (unsigned k = 0; g->dep >= 0 && k < nrtm_of(g, (unsigned)g->dep); k++)
        if (!unused((unsigned)g->dep, k) &&
            state_name((unsigned)g->dep, k, out, n) == gestures) {
            rtm_buf_printf(g->t, "class %s;\n", out);
            return;
        }
    *out = 0;
}

/* The next state's parent: the config's base, one of the game's classes
 * (declared extern in States), the state before, dep's, or none. */
static const char *pick_parent(struct gen *g, int gestures, const char *base, const char *dep,
                               const char *prev)
{
    static const char *const GAME[2][3] = {
        { "AmovPercMstpSnonWnonDnon", "AmovPercMstpSrasWrflDnon", "CutSceneAnimationBase" },
        { "GestureFreezeStand", "GestureNod", "GestureGo" },
    };
    uint32_t r = rng_range(&g->rng, 0, 99);
    if (r < 35)
        return base;
    if (r < 65)
        return GAME[gestures][r % 3];
    if (r < 85 && prev)
        return prev;
    /* dep names the first state of its kind, which never takes dep: no
     * chain of parents across configs comes back to where it started */
    if (r < 90 && *dep && prev)
        return dep;
    return r < 90 ? base : NULL;
}

static void put_states(struct gen *g, int gestures)
{
    char base[CFG_NAME], dep[CFG_NAME], prev[CFG_NAME] = "", name[CFG_NAME];
    snprintf(base, sizeof base, "%s_%s", g->tag, gestures ? "GestureBase" : "Base");
    rtm_buf_puts(g->t, gestures ? "class States\n{\nclass GestureFreezeStand;\nclass GestureNod;\n"
                              "class GestureGo;\n"
                            : "class States\n{\nclass AmovPercMstpSnonWnonDnon;\n"
                              "class AmovPercMstpSrasWrflDnon;\nclass CutSceneAnimationBase;\n");
    dep_parent(g, gestures, dep, sizeof dep);
    if (gestures)
        rtm_buf_printf(g->t, "class %s : GestureFreezeStand\n{\nmask = \"handsWeapon\";\n"
                       "interpolationSpeed = 3;\n};\n", base);
    else
        rtm_buf_printf(g->t, "class %s : AmovPercMstpSrasWrflDnon\n{\nactions = \"%s_Actions\";\n"
                       "duty = 0.3;\nInterpolateTo[] = {\"AmovPercMstpSnonWnonDnon\", 0.02};\n};\n",
                       base, g->tag);
    for (unsigned m = 0; m < nrtm_of(g, g->i); m++) {
        if (unused(g->i, m) || state_name(g->i, m, name, sizeof name) != gestures)
            continue;
        const char *parent = pick_parent(g, gestures, base, dep, *prev ? prev : NULL);
        int same_file = parent && parent == prev && rng_range(&g->rng, 0, 5) == 0;
        put_state(g, m, parent, gestures, same_file, *prev ? prev : NULL);
        memcpy(prev, name, sizeof prev);
    }
    rtm_buf_puts(g->t, "};\n");
}

static void put_moves(struct gen *g)
{
    char name[CFG_NAME];
    rtm_buf_printf(g->t, "class CfgMovesBasic\n{\nclass ManActions\n{\n");
    for (unsigned m = 0; m < nrtm_of(g, g->i) && m < 8; m++)
        if (!unused(g->i, m) && state_name(g->i, m, name, sizeof name))
            rtm_buf_printf(g->t, "%s = \"%s\";\n", name, name);
    rtm_buf_printf(g->t, "};\nclass Actions\n{\nclass NoActions;\nclass %s_Actions : NoActions\n{\n"
                   "stop = \"%s_Base\";\ndefault = \"%s_Base\";\nturnL = \"\";\nturnR = \"\";\n"
                   "upDegree = \"ManPosStand\";\nstance = \"ManStanceStand\";\n};\n};\n};\n"
                   "class CfgMovesMaleSdr : CfgMovesBasic\n{\n", g->tag, g->tag, g->tag);
    put_states(g, 0);
    rtm_buf_puts(g->t, "};\nclass CfgGesturesMale\n{\n");
    put_states(g, 1);
    rtm_buf_puts(g->t, "};\n");
}

/* A list of "TAG_WHAT_k" names for CfgPatches. */
static void put_names(struct gen *g, const char *what, unsigned n)
{
    for (unsigned k = 0; k < n; k++)
        rtm_buf_printf(g->t, "%s\"%s_%s_%u\"", k ? ", " : "", g->tag, what, k);
}

static void put_patches(struct gen *g)
{
    rtm_buf_printf(g->t, "class CfgPatches\n{\nclass %s\n{\nname = \"Mod %02u: %s\";\n"
                   "author = \"rtmgen\";\nurl = \"https://example.org/mod_%02u\";\nunits[] = {",
                   g->tag, g->i % INSTALL_MODS, g->tag, g->i % INSTALL_MODS);
    put_names(g, "unit", g->nunits);
    rtm_buf_puts(g->t, "};\nweapons[] = {");
    put_names(g, "rifle", g->nrifles);
    rtm_buf_puts(g->t, "};\nrequiredVersion = 2.14;\nrequiredAddons[] = {\"A3_Anims_F\", "
                 "\"A3_Characters_F\"");
    if (g->dep >= 0) {
        char tag[80], prefix[128];
        tag_of((unsigned)g->dep, tag, sizeof tag, prefix, sizeof prefix);
        rtm_buf_printf(g->t, ", \"%s\"", tag);
    }
    rtm_buf_printf(g->t, "};\nversion = \"1.%u.%u\";\nversionAr[] = {1, %u, %u};\n};\n};\n",
                   g->i % 7, g->i % 31, g->i % 7, g->i % 31);
}

static void put_unit(struct gen *g, unsigned k)
{
    uint32_t camo = rng_range(&g->rng, 0, 9), armor = rng_range(&g->rng, 2, 9);
    unsigned rifle = k % (g->nrifles ? g->nrifles : 1);
    rtm_buf_printf(g->t, "class %s_unit_%u : B_Soldier_base_F\n{\nauthor = \"rtmgen\";\nscope = 2;\n"
                   "scopeCurator = 2;\ndisplayName = \"Rifleman %u (%s)\";\n"
                   "editorSubcategory = \"EdSubcat_Personnel\";\nmodel = \"\\%s\\data\\unit_%u.p3d\";\n"
                   "uniformClass = \"%s_uniform_%u\";\nhiddenSelections[] = {\"camo\", \"insignia\"};\n"
                   "hiddenSelectionsTextures[] = {\"\\%s\\data\\tex_%03u.paa\"};\n"
                   "weapons[] = {\"%s_rifle_%u\", \"Throw\", \"Put\"};\n"
                   "respawnWeapons[] = {\"%s_rifle_%u\", \"Throw\", \"Put\"};\n"
                   "linkedItems[] = {\"ItemMap\", \"ItemCompass\", \"ItemWatch\", \"ItemRadio\"};\n"
                   "camouflage = 1.%u;\narmor = %u;\ncost = %u;\n"
                   "class EventHandlers\n{\ninit = \"params ['_unit']; [_unit] call %s_fnc_init;\";\n};\n"
                   "};\n", g->tag, k, k, g->tag, g->prefix, k, g->tag, k, g->prefix, k % 3, g->tag,
                   rifle, g->tag, rifle, camo, armor, rng_range(&g->rng, 40000, 250000), g->tag);
}

/* A rifle whose handAnim names an animation of the archive: the other way
 * real configs name animations, outside any state. */
static void put_rifle(struct gen *g, unsigned k)
{
    char path[CFG_PATH];
    rtmgen_install_rtm(g->i, k % nrtm_of(g, g->i), path, sizeof path);
    uint32_t t1 = rng_range(&g->rng, 60, 99), d1 = rng_range(&g->rng, 500, 999);
    uint32_t t2 = rng_range(&g->rng, 60, 99);
    rtm_buf_printf(g->t, "class %s_rifle_%u : Rifle_Base_F\n{\nauthor = \"rtmgen\";\nscope = 2;\n"
                   "displayName = \"Rifle %u (%s)\";\nmodel = \"\\%s\\data\\rifle_%u.p3d\";\n"
                   "picture = \"\\%s\\data\\ui\\rifle_%u_ca.paa\";\n"
                   "magazines[] = {\"30Rnd_65x39_caseless_mag\", \"30Rnd_65x39_caseless_mag_Tracer\"};\n"
                   "handAnim[] = {\"OFP2_ManSkeleton\", \"\\%s\\%s\"};\n"
                   "reloadAction = \"GestureReloadMX\";\nmodes[] = {\"Single\", \"FullAuto\"};\n"
                   "class Single : Mode_SemiAuto\n{\nreloadTime = 0.0%u;\ndispersion = 0.000%u;\n"
                   "sounds[] = {\"StandardSound\"};\nminRange = 2;\nmidRange = 250;\nmaxRange = 600;\n};\n"
                   "class FullAuto : Mode_FullAuto\n{\nreloadTime = 0.0%u;\ndispersion = 0.000%u;\n"
                   "sounds[] = {\"StandardSound\"};\n};\n};\n", g->tag, k, k, g->tag, g->prefix, k,
                   g->prefix, k, g->prefix, path, t1, d1, t2, rng_range(&g->rng, 500, 999));
}

static void put_filler(struct gen *g)
{
    rtm_buf_puts(g->t, "class Mode_SemiAuto;\nclass Mode_FullAuto;\n"
                 "class CfgVehicles\n{\nclass B_Soldier_base_F;\n");
    for (unsigned k = 0; k < g->nunits; k++)
        put_unit(g, k);
    rtm_buf_puts(g->t, "};\nclass CfgWeapons\n{\nclass Rifle_Base_F;\n");
    for (unsigned k = 0; k < g->nrifles; k++)
        put_rifle(g, k);
    rtm_buf_puts(g->t, "};\n");
}

/* The enum table BI's binariser writes from the game's defines. */
static void put_enum(struct gen *g)
{
    rtm_buf_puts(g->t, "enum\n{\ndestructengine = 2,\ndestructdefault = 6,\ndestructwreck = 7,\n"
                 "destructtree = 3,\ndestructtent = 4,\nstabilizedinaxisx = 1,\n"
                 "stabilizedinaxesxyz = 4,\nstabilizedinaxisy = 2,\nstabilizedinaxesboth = 3,\n"
                 "destructno = 0,\nstabilizedinaxesnone = 0,\ndestructman = 5,\ndestructbuilding = 1\n"
                 "};\n");
}

/* How many units and rifles (0.7 kB each, rapified): a third of configs
 * few, a quarter many (from about 15 kB to 300, 75 kB on average, so that
 * 400 archives hold about 30 MB: a whole install's mods hold tens of MB). */
static void draw_sizes(struct gen *g)
{
    uint32_t r = rng_range(&g->rng, 0, 99);
    unsigned n = r < 30 ? rng_range(&g->rng, 0, 4)
               : r < 75 ? rng_range(&g->rng, 10, 80) : rng_range(&g->rng, 80, 400);
    g->nunits = (n + 1) / 2;
    g->nrifles = n / 2;
}

static int rapify(struct rtm_buf *text, unsigned i, struct rtm_buf *out)
{
    struct cfg *c = NULL;
    struct rtm_error err;
    char msg[300];
    if (text->oom || cfg_parse_text(text->p, text->len, "config.cpp", NULL, &c, &err)) {
        if (text->oom)
            snprintf(msg, sizeof msg, "out of memory");
        else
            rtm_err_format(&err, msg, sizeof msg);
        fprintf(stderr, "rtmgen: archive %u: its config: %s\n", i, msg);
        return -1;
    }
    int rc = rap_write(c, out);
    if (rc)
        fprintf(stderr, "rtmgen: archive %u: its config.bin: out of memory\n", i);
    cfg_free(c);
    return rc;
}

int rtmgen_config(unsigned i, long total, struct rtm_buf *out)
{
    struct rtm_buf text;
    rtm_buf_init(&text);
    struct gen g = { &text, (0xC0F16B1Du ^ mix(i)) | 1, i, (unsigned)((total + INSTALL_RTM - 1) / INSTALL_RTM),
                     total, "", "", 0, 0, -1 };
    tag_of(i, g.tag, sizeof g.tag, g.prefix, sizeof g.prefix);
    draw_sizes(&g);
    if (g.narchives > 1 && rng_range(&g.rng, 0, 2) == 0)
        g.dep = (long)((i + rng_range(&g.rng, 1, g.narchives - 1)) % g.narchives);
    put_patches(&g);
    put_moves(&g);
    put_filler(&g);
    if (rng_range(&g.rng, 0, 2) == 0)
        put_enum(&g);
    int rc = rapify(&text, i, out);
    rtm_buf_free(&text);
    return rc;
}
