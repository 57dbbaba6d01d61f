/* test_fbx_scene.c - rtmfs-fbx's scene to GLB (fbx_scene.h, fbx_axes.h,
 * fbx_tree.h), on assimp scenes built by hand: the nodes and their
 * children, the change of axes and unit on the root (or on a wrapper when
 * the root moves), the skin, the times of a clip, and the refusals. */
#include "testutil.h"

#include <assimp/scene.h>
#include <jansson.h>
#include <math.h>

#include "fbx_axes.h"
#include "fbx_scene.h"
#include "glb.h"

static struct aiString name_of(const char *s)
{
    struct aiString n = { .length = (ai_uint32)strlen(s) };
    memcpy(n.data, s, n.length + 1);
    return n;
}

static const struct aiMatrix4x4 identity = { 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1 };

/* RootNode > Armature > Hip > Knee; a mesh "Body" skinned to Hip and Knee;
 * a clip "Take" of three rotation keys of Hip (two at one time) at 0
 * ticks a second. */
struct fixture {
    struct aiNode root, arm, hip, knee;
    struct aiNode *root_kids[1], *arm_kids[1], *hip_kids[1];
    struct aiBone hip_bone, knee_bone, *bones[2];
    struct aiMesh mesh, *meshes[1];
    struct aiQuatKey keys[3];
    struct aiNodeAnim chan, *chans[1];
    struct aiAnimation anim, *anims[1];
    struct aiScene scene;
};

static void build(struct fixture *f)
{
    memset(f, 0, sizeof *f);
    f->root = (struct aiNode){ .mName = name_of("RootNode"), .mTransformation = identity, .mNumChildren = 1,
                               .mChildren = f->root_kids };
    f->arm = (struct aiNode){ .mName = name_of("Armature"), .mTransformation = identity, .mNumChildren = 1,
                              .mChildren = f->arm_kids };
    f->hip = (struct aiNode){ .mName = name_of("Hip"), .mTransformation = identity, .mNumChildren = 1,
                              .mChildren = f->hip_kids };
    f->hip.mTransformation.b4 = 90;     /* 90 cm up */
    f->knee = (struct aiNode){ .mName = name_of("Knee"), .mTransformation = identity };
    f->knee.mTransformation.b4 = -45;
    f->root_kids[0] = &f->arm, f->arm_kids[0] = &f->hip, f->hip_kids[0] = &f->knee;
    f->hip_bone = (struct aiBone){ .mName = name_of("Hip"), .mOffsetMatrix = identity };
    f->hip_bone.mOffsetMatrix.b4 = -90;
    f->knee_bone = (struct aiBone){ .mName = name_of("Knee"), .mOffsetMatrix = identity };
    f->knee_bone.mOffsetMatrix.b4 = -45;
    f->bones[0] = &f->hip_bone, f->bones[1] = &f->knee_bone;
    f->mesh = (struct aiMesh){ .mName = name_of("Body"), .mNumBones = 2, .mBones = f->bones };
    f->meshes[0] = &f->mesh;
    f->keys[0] = (struct aiQuatKey){ .mTime = 0, .mValue = { 1, 0, 0, 0 } };
    f->keys[1] = (struct aiQuatKey){ .mTime = 0, .mValue = { 0, 1, 0, 0 } };
    f->keys[2] = (struct aiQuatKey){ .mTime = 2, .mValue = { 0, 0, 0, 2 } };    /* not unit */
    f->chan = (struct aiNodeAnim){ .mNodeName = name_of("Hip"), .mNumRotationKeys = 3, .mRotationKeys = f->keys };
    f->chans[0] = &f->chan;
    f->anim = (struct aiAnimation){ .mName = name_of("Take"), .mTicksPerSecond = 0, .mNumChannels = 1,
                                    .mChannels = f->chans };
    f->anims[0] = &f->anim;
    f->scene = (struct aiScene){ .mRootNode = &f->root, .mNumMeshes = 1, .mMeshes = f->meshes,
                                 .mNumAnimations = 1, .mAnimations = f->anims };
}

/* The GLB's JSON, or NULL with err set by the conversion. */
static json_t *convert(const struct fixture *f, const struct fbx_axes *axes, struct rtm_error *err,
                       struct rtm_buf *out)
{
    rtm_buf_init(out);
    if (fbx_scene_to_glb(&f->scene, axes, out, err) != 0)
        return NULL;
    struct rtm_glb g;
    assert_int_equal(rtm_glb_split((const uint8_t *)out->p, out->len, &g, err), 0);
    json_t *doc = json_loadb((const char *)g.json, g.json_len, 0, NULL);
    assert_non_null(doc);
    return doc;
}

static double real_at(json_t *doc, const char *path)
{
    char buf[128];
    snprintf(buf, sizeof buf, "%s", path);
    json_t *j = doc;
    for (char *tok = strtok(buf, "/"); tok && j; tok = strtok(NULL, "/"))
        j = json_is_array(j) ? json_array_get(j, strtoul(tok, NULL, 10)) : json_object_get(j, tok);
    assert_non_null(j);
    return json_number_value(j);
}

static void tree_skin_and_clip(void **state)
{
    (void)state;
    struct fixture f;
    struct fbx_axes axes;
    struct rtm_error err = { 0 };
    struct rtm_buf out;
    build(&f);
    fbx_axes_default(&axes);
    json_t *doc = convert(&f, &axes, &err, &out);
    assert_non_null(doc);
    json_t *nodes = json_object_get(doc, "nodes");
    assert_int_equal(json_array_size(nodes), 4);
    assert_string_equal(json_string_value(json_object_get(json_array_get(nodes, 2), "name")), "Hip");
    assert_int_equal((int)real_at(doc, "nodes/2/children/0"), 3);
    assert_float_equal(real_at(doc, "nodes/0/scale/0"), 0.01, 1e-9);   /* centimetres to metres */
    assert_float_equal(real_at(doc, "nodes/2/translation/1"), 90, 0);
    assert_int_equal((int)real_at(doc, "skins/0/joints/0"), 2);
    assert_int_equal((int)real_at(doc, "skins/0/joints/1"), 3);
    json_t *clip = json_array_get(json_object_get(doc, "animations"), 0);
    assert_string_equal(json_string_value(json_object_get(clip, "name")), "Take");
    assert_int_equal((int)real_at(clip, "channels/0/target/node"), 2);
    int in = (int)real_at(clip, "samplers/0/input");
    char path[64];
    snprintf(path, sizeof path, "accessors/%d/count", in);
    assert_int_equal((int)real_at(doc, path), 2);                   /* the repeated time dropped */
    snprintf(path, sizeof path, "accessors/%d/max/0", in);
    assert_float_equal(real_at(doc, path), 2.0f / 25, 0);           /* 25 ticks a second */
    json_decref(doc);
    rtm_buf_free(&out);
}

static void moving_root_gets_a_wrapper(void **state)
{
    (void)state;
    struct fixture f;
    struct fbx_axes axes;
    struct rtm_error err = { 0 };
    struct rtm_buf out;
    build(&f);
    f.chan.mNodeName = name_of("RootNode");
    fbx_axes_default(&axes);
    axes.unit_cm = 100;         /* metres: no scale */
    axes.up = 2, axes.front = 1, axes.front_sign = -1;  /* z up, front -y */
    json_t *doc = convert(&f, &axes, &err, &out);
    assert_non_null(doc);
    json_t *wrap = json_array_get(json_object_get(doc, "nodes"), 0);
    assert_string_equal(json_string_value(json_object_get(wrap, "name")), "rtmfs-fbx axes");
    assert_null(json_object_get(json_array_get(json_object_get(doc, "nodes"), 1), "rotation"));
    /* z up to y up: -90 degrees about x */
    assert_float_equal(real_at(doc, "nodes/0/rotation/0"), -sqrt(0.5), 1e-6);
    assert_float_equal(real_at(doc, "nodes/0/rotation/3"), sqrt(0.5), 1e-6);
    assert_int_equal((int)real_at(doc, "animations/0/channels/0/target/node"), 1);
    assert_int_equal((int)real_at(doc, "skins/0/joints/0"), 3);
    json_decref(doc);
    rtm_buf_free(&out);
}

static void refusals_say_where(void **state)
{
    (void)state;
    struct fixture f;
    struct fbx_axes axes;
    struct rtm_error err = { 0 };
    struct rtm_buf out;
    fbx_axes_default(&axes);
    build(&f);
    f.chan.mNodeName = name_of("Nowhere");
    assert_null(convert(&f, &axes, &err, &out));
    assert_string_equal(err.msg, "animation Take: a channel moves node Nowhere, which is not in the tree");
    rtm_buf_free(&out);
    build(&f);
    f.keys[2].mValue.x = NAN;
    assert_null(convert(&f, &axes, &err, &out));
    assert_string_equal(err.msg, "animation Take, node Hip: rotation key 2 is not finite");
    rtm_buf_free(&out);
    build(&f);
    f.knee_bone.mName = name_of("Ankle");
    assert_null(convert(&f, &axes, &err, &out));
    assert_string_equal(err.msg, "mesh Body: bone Ankle has no node");
    rtm_buf_free(&out);
    build(&f);
    f.knee.mChildren = NULL, f.knee.mNumChildren = 1;
    assert_null(convert(&f, &axes, &err, &out));
    assert_string_equal(err.msg, "node 3 has 1 children and no list of them");
    rtm_buf_free(&out);
    build(&f);
    f.hip_kids[0] = &f.arm;     /* a cycle */
    assert_null(convert(&f, &axes, &err, &out));
    assert_non_null(strstr(err.msg, "or a cycle"));
    rtm_buf_free(&out);
}

static void axes_checked(void **state)
{
    (void)state;
    struct fbx_axes a;
    struct rtm_error err = { 0 };
    fbx_mat4 m;
    fbx_axes_default(&a);
    a.front = a.up;
    assert_int_equal(fbx_axes_matrix(&a, m, &err), -1);
    assert_string_equal(err.msg, "axis system names one axis twice (UpAxis 1, FrontAxis 1, CoordAxis 0)");
    fbx_axes_default(&a);
    a.unit_cm = 0;
    assert_int_equal(fbx_axes_matrix(&a, m, &err), -1);
    assert_string_equal(err.msg, "UnitScaleFactor 0 is not a positive number");
    fbx_axes_default(&a);
    a.up_sign = 3;
    assert_int_equal(fbx_axes_matrix(&a, m, &err), -1);
    /* a left-handed file: a mirror, kept as a negative x scale */
    fbx_axes_default(&a);
    a.coord_sign = -1;
    assert_int_equal(fbx_axes_matrix(&a, m, &err), 0);
    double t[3], q[4], s[3];
    fbx_decompose(m, t, q, s);
    assert_float_equal(s[0], -0.01, 1e-12);
    assert_float_equal(s[1], 0.01, 1e-12);
    assert_float_equal(q[3], 1, 1e-12);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(tree_skin_and_clip),
        cmocka_unit_test(moving_root_gets_a_wrapper),
        cmocka_unit_test(refusals_say_where),
        cmocka_unit_test(axes_checked),
    };
    return run_test_cases(tests, NULL, NULL);
}
