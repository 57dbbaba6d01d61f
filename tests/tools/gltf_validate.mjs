// gltf_validate.mjs - node tests/tools/gltf_validate.mjs FILE...: Khronos's
// glTF-Validator (the gltf-validator package on npm) over each .glb or .gltf
// file.  Prints one line a file, "FILE: E errors, W warnings, I infos"
// followed by its errors and warnings ("  ERROR CODE at POINTER: message"),
// and exits 1 when any file has an error.  The package is looked for under
// $RTMFS_TEST_TOOLS (default /usr/local/lib/rtmfs-test-tools, where
// src/scripts/deps.sh ci installs it), then where node finds modules;
// without it the script says so and exits 3 (a test then skips).
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";

const prefix = process.env.RTMFS_TEST_TOOLS || "/usr/local/lib/rtmfs-test-tools";

function loadValidator() {
    for (const base of [path.join(prefix, "package.json"), import.meta.url]) {
        try {
            return createRequire(base)("gltf-validator");
        } catch {
            /* try the next place */
        }
    }
    return null;
}

const SEVERITY = ["ERROR", "WARNING", "INFO", "HINT"];

async function main() {
    const validator = loadValidator();
    if (!validator) {
        console.error(`gltf_validate: not installed: gltf-validator (npm install --prefix ${prefix} gltf-validator)`);
        process.exit(3);
    }
    let failed = 0;
    for (const file of process.argv.slice(2)) {
        let report;
        try {
            const bytes = new Uint8Array(await readFile(file));
            report = await validator.validateBytes(bytes, { maxIssues: 50, uri: file });
        } catch (e) {
            console.log(`${file}: 1 errors, 0 warnings, 0 infos`);
            console.log(`  ERROR cannot validate: ${e && e.message ? e.message : e}`);
            failed++;
            continue;
        }
        const n = report.issues;
        console.log(`${file}: ${n.numErrors} errors, ${n.numWarnings} warnings, ${n.numInfos} infos`);
        for (const m of n.messages)
            if (m.severity <= 1)
                console.log(`  ${SEVERITY[m.severity]} ${m.code} at ${m.pointer || m.offset}: ${m.message}`);
        failed += n.numErrors > 0;
    }
    process.exit(failed ? 1 : 0);
}

main();
