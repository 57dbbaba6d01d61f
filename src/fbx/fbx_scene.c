/* fbx_scene.c - an assimp scene as GLB (fbx_scene.h): the nodes and the
 * skins here, the animations in fbx_anim.c. */
#include "fbx_scene.h"

#include <assimp/scene.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fbx_anim.h"
#include "fbx_gltf.h"

static void mat_of(const struct aiMatrix4x4 *a, fbx_mat4 m)
{
    const ai_real r[16] = { a->a1, a->a2, a->a3, a->a4, a->b1, a->b2, a->b3, a->b4,
                            a->c1, a->c2, a->c3, a->c4, a->d1, a->d2, a->d3, a->d4 };
    for (int i = 0; i < 16; i++)
        m[i / 4][i % 4] = r[i];
}

static int finite_mat(const fbx_mat4 m)
{
    for (int i = 0; i < 16; i++)
        if (!isfinite(m[i / 4][i % 4]))
            return 0;
    return 1;
}

static json_t *vec_json(const double *v, int n)
{
    json_t *a = json_array();
    for (int i = 0; a && i < n; i++)
        if (json_array_append_new(a, json_real((float)v[i])) != 0) {
            json_decref(a);
            return NULL;
        }
    return a;
}

/* A glTF node: name, transform m (what differs from the default), and
 * children (its reference taken). */
static json_t *node_json(const struct aiString *name, const fbx_mat4 m, json_t *children)
{
    double t[3], q[4], s[3];
    fbx_decompose(m, t, q, s);
    json_t *nd = json_object();
    int bad = !nd || !children || json_object_set_new(nd, "name", fbx_gltf_name(name->data, fbx_name_len(name)));
    if (!bad && (t[0] != 0 || t[1] != 0 || t[2] != 0))
        bad = json_object_set_new(nd, "translation", vec_json(t, 3));
    if (!bad && (float)q[3] != 1)
        bad = json_object_set_new(nd, "rotation", vec_json(q, 4));
    if (!bad && (s[0] != 1 || s[1] != 1 || s[2] != 1))
        bad = json_object_set_new(nd, "scale", vec_json(s, 3));
    if (!bad && json_array_size(children) > 0)
        bad = json_object_set(nd, "children", children);
    json_decref(children);
    if (bad) {
        json_decref(nd);
        return NULL;
    }
    return nd;
}

static json_t *children_json(const struct fbx_tree *t, size_t i, size_t base)
{
    json_t *kids = json_array();
    size_t at = i + 1;
    for (unsigned c = 0; kids && c < t->node[i]->mNumChildren; c++, at += t->subtree[at])
        if (json_array_append_new(kids, json_integer((json_int_t)(at + base))) != 0) {
            json_decref(kids);
            return NULL;
        }
    return kids;
}

static int add_nodes(struct fbx_gltf *g, const struct fbx_tree *t, const fbx_mat4 change, int wrapper,
                     struct rtm_error *err)
{
    size_t base = wrapper ? 1 : 0;
    if (wrapper) {
        struct aiString name = { .length = 14, .data = "rtmfs-fbx axes" };
        if (fbx_gltf_append(g->nodes, node_json(&name, change, json_pack("[i]", 1)), err))
            return -1;
    }
    for (size_t i = 0; i < t->n; i++) {
        const struct aiNode *nd = t->node[i];
        fbx_mat4 m;
        mat_of(&nd->mTransformation, m);
        if (!finite_mat(m)) {
            rtm_err_nooff(err, "node %.*s: its transform is not finite", (int)fbx_name_len(&nd->mName),
                          nd->mName.data);
            return -1;
        }
        if (i == 0 && !wrapper)
            fbx_mat_mul(change, m, m);
        if (fbx_gltf_append(g->nodes, node_json(&nd->mName, m, children_json(t, i, base)), err))
            return -1;
    }
    return 0;
}

/* The skin of one mesh: its bones' nodes (each once) and their offset
 * matrices, column-major as glTF stores a MAT4. */
static int add_skin(struct fbx_gltf *g, const struct aiMesh *mesh, const struct fbx_tree *t, size_t base,
                    struct rtm_error *err)
{
    float *ibm = malloc((size_t)mesh->mNumBones * 16 * sizeof *ibm);
    json_t *joints = json_array();
    char *seen = calloc(t->n, 1);
    long acc = -1;
    size_t n = 0;
    if (!ibm || !joints || !seen) {
        rtm_err_oom(err, "out of memory for a skin of %u bones", mesh->mNumBones);
        goto done;
    }
    for (unsigned b = 0; b < mesh->mNumBones; b++) {
        const struct aiBone *bone = mesh->mBones[b];
        long at = fbx_tree_find(t, &bone->mName);
        if (at < 0) {
            rtm_err_nooff(err, "mesh %.*s: bone %.*s has no node", (int)fbx_name_len(&mesh->mName),
                          mesh->mName.data, (int)fbx_name_len(&bone->mName), bone->mName.data);
            goto done;
        }
        if (seen[at]++)
            continue;
        fbx_mat4 m;
        mat_of(&bone->mOffsetMatrix, m);
        if (!finite_mat(m)) {
            rtm_err_nooff(err, "bone %.*s: its offset matrix is not finite", (int)fbx_name_len(&bone->mName),
                          bone->mName.data);
            goto done;
        }
        for (int k = 0; k < 16; k++)
            ibm[n * 16 + k] = (float)m[k % 4][k / 4];
        n++;
        if (json_array_append_new(joints, json_integer((json_int_t)((size_t)at + base)))) {
            rtm_err_oom(err, "out of memory for a skin of %u bones", mesh->mNumBones);
            goto done;
        }
    }
    acc = fbx_gltf_accessor(g, ibm, n, "MAT4", 0, err);
    if (acc >= 0 &&
        fbx_gltf_append(g->skins, json_pack("{s:o, s:I, s:O}", "name",
                        fbx_gltf_name(mesh->mName.data, fbx_name_len(&mesh->mName)),
                        "inverseBindMatrices", (json_int_t)acc, "joints", joints), err))
        acc = -1;
done:
    free(ibm);
    free(seen);
    json_decref(joints);
    return acc >= 0 ? 0 : -1;
}

static int add_skins(struct fbx_gltf *g, const struct aiScene *sc, const struct fbx_tree *t, size_t base,
                     struct rtm_error *err)
{
    for (unsigned i = 0; i < sc->mNumMeshes; i++) {
        const struct aiMesh *mesh = sc->mMeshes[i];
        if (mesh && mesh->mNumBones > 0 && add_skin(g, mesh, t, base, err) != 0)
            return -1;
    }
    return 0;
}

int fbx_scene_to_glb(const struct aiScene *sc, const struct fbx_axes *axes, struct rtm_buf *out,
                     struct rtm_error *err)
{
    fbx_mat4 change;
    struct fbx_tree t;
    struct fbx_gltf g;
    if (!sc->mRootNode) {
        rtm_err_nooff(err, "the scene has no root node");
        return -1;
    }
    if (fbx_axes_matrix(axes, change, err) != 0 || fbx_tree_flatten(sc->mRootNode, &t, err) != 0)
        return -1;
    if (fbx_gltf_init(&g, err) != 0) {
        fbx_tree_free(&t);
        return -1;
    }
    int wrapper = fbx_anim_moves_root(sc, &t);
    size_t base = wrapper ? 1 : 0;
    int rc = add_nodes(&g, &t, change, wrapper, err);
    if (rc == 0)
        rc = add_skins(&g, sc, &t, base, err);
    if (rc == 0)
        rc = fbx_add_animations(&g, sc, &t, base, err);
    if (rc == 0)
        rc = fbx_gltf_finish(&g, 0, out, err);
    fbx_gltf_free(&g);
    fbx_tree_free(&t);
    return rc;
}
