// SPDX-License-Identifier: Apache-2.0
//! An OPTIONS file: parse it and look up its sections and values.
#![no_main]

use libfuzzer_sys::fuzz_target;
use solistore::options::file::{parse_options_file, unescape_option_string};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(parsed) = parse_options_file(&text) {
        if let Some(db) = parsed.db_options() {
            let _ = db.get("wal_recovery_mode");
        }
        for name in ["default", "cf1"] {
            if let Some(cf) = parsed.cf_options(name) {
                let _ = cf.get("comparator");
            }
            let _ = parsed.table_options(name);
        }
    }
    let _ = unescape_option_string(&text);
});
