// fbx_gltf_validate.js FILE.glb - Khronos's glTF validator (the npm
// package gltf-validator, found through NODE_PATH) over one GLB.  Prints
// each error and warning, then "N errors, N warnings, N infos"; exits 1
// when there is an error.
const fs = require("fs");
const validator = require("gltf-validator");

const file = process.argv[2];
validator.validateBytes(new Uint8Array(fs.readFileSync(file)), { uri: file, maxIssues: 100 })
    .then((report) => {
        const issues = report.issues;
        for (const m of issues.messages)
            if (m.severity <= 1)
                console.log(`${m.severity === 0 ? "error" : "warning"} ${m.code} ${m.pointer || ""}: ${m.message}`);
        console.log(`${issues.numErrors} errors, ${issues.numWarnings} warnings, ${issues.numInfos} infos`);
        process.exit(issues.numErrors > 0 ? 1 : 0);
    })
    .catch((e) => { console.log(`validator failed: ${e}`); process.exit(2); });
