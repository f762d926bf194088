// SPDX-License-Identifier: Apache-2.0
//! The C API's types: one opaque Rust struct per `typedef struct rocksdb_X_t rocksdb_X_t;`
//! of RocksDB's `c.h` (v11.1.2, whose set includes v7.8.3's; in upstream's order), the one
//! transparent struct `rocksdb_slice_t`, and the callback typedefs.
//!
//! Each opaque struct is non-`repr(C)` and named exactly like the C typedef, so cbindgen emits
//! `typedef struct rocksdb_X_t rocksdb_X_t;` (LevelDB's `struct leveldb_t { DB* rep; }`
//! pattern, STYLE.md §4.6). While an object kind has no implementation it carries a private
//! placeholder field and no value of it is ever created: its `*_create` stubs return NULL.
//! When a kind gets its real implementation, its fields go here (or the struct moves to the
//! module named after its C prefix, STYLE.md §3) with its ownership kind documented on it.
//! The structs are spelled out one by one, not made by a macro, because cbindgen does not
//! expand macros.

use std::ffi::{c_char, c_int, c_void};

// Kinds that have their real implementation live in the module of their C prefix; they are
// re-exported here so that generated code finds every C type in one place.
pub use crate::block_based_options::rocksdb_block_based_table_options_t;
pub use crate::cache::rocksdb_cache_t;
pub use crate::cache::rocksdb_hyper_clock_cache_options_t;
pub use crate::cache::rocksdb_lru_cache_options_t;
pub use crate::checkpoint::rocksdb_checkpoint_t;
pub use crate::column_family::rocksdb_column_family_handle_t;
pub use crate::compactionfilter::rocksdb_compactionfilter_t;
pub use crate::compactionfilter::rocksdb_compactionfiltercontext_t;
pub use crate::compactionfilter::rocksdb_compactionfilterfactory_t;
pub use crate::compactoptions::rocksdb_compactoptions_t;
pub use crate::comparator::rocksdb_comparator_t;
pub use crate::db::rocksdb_pinnable_handle_t;
pub use crate::db::rocksdb_pinnableslice_t;
pub use crate::db::rocksdb_t;
pub use crate::env::rocksdb_env_t;
pub use crate::filterpolicy::rocksdb_filterpolicy_t;
pub use crate::flushoptions::rocksdb_flushoptions_t;
pub use crate::iter::rocksdb_iterator_t;
pub use crate::mergeoperator::rocksdb_mergeoperator_t;
pub use crate::options::cuckoo_options::rocksdb_cuckoo_table_options_t;
pub use crate::options::dbpath::rocksdb_dbpath_t;
pub use crate::options::fifo_compaction_options::rocksdb_fifo_compaction_options_t;
pub use crate::options::rocksdb_options_t;
pub use crate::options::universal_compaction_options::rocksdb_universal_compaction_options_t;
pub use crate::ratelimiter::rocksdb_ratelimiter_t;
pub use crate::readoptions::rocksdb_readoptions_t;
pub use crate::slicetransform::rocksdb_slicetransform_t;
pub use crate::snapshot::rocksdb_snapshot_t;
pub use crate::write_buffer_manager::rocksdb_write_buffer_manager_t;
pub use crate::writebatch::rocksdb_writebatch_t;
pub use crate::writeoptions::rocksdb_writeoptions_t;

pub struct rocksdb_status_ptr_t {
    _placeholder: (),
}
pub struct rocksdb_backup_engine_t {
    _placeholder: (),
}
pub struct rocksdb_backup_engine_info_t {
    _placeholder: (),
}
pub struct rocksdb_backup_engine_options_t {
    _placeholder: (),
}
pub struct rocksdb_restore_options_t {
    _placeholder: (),
}
pub struct rocksdb_memory_allocator_t {
    _placeholder: (),
}
pub struct rocksdb_sst_file_manager_t {
    _placeholder: (),
}
pub struct rocksdb_file_checksum_gen_factory_t {
    _placeholder: (),
}
pub struct rocksdb_sst_partitioner_factory_t {
    _placeholder: (),
}
pub struct rocksdb_table_properties_collector_factory_t {
    _placeholder: (),
}
pub struct rocksdb_filelock_t {
    _placeholder: (),
}
pub struct rocksdb_logger_t {
    _placeholder: (),
}
pub struct rocksdb_randomfile_t {
    _placeholder: (),
}
pub struct rocksdb_seqfile_t {
    _placeholder: (),
}
pub struct rocksdb_writablefile_t {
    _placeholder: (),
}
pub struct rocksdb_writebatch_wi_t {
    _placeholder: (),
}
pub struct rocksdb_livefile_t {
    _placeholder: (),
}
pub struct rocksdb_livefiles_t {
    _placeholder: (),
}
pub struct rocksdb_column_family_metadata_t {
    _placeholder: (),
}
pub struct rocksdb_import_column_family_options_t {
    _placeholder: (),
}
pub struct rocksdb_export_import_files_metadata_t {
    _placeholder: (),
}
pub struct rocksdb_level_metadata_t {
    _placeholder: (),
}
pub struct rocksdb_sst_file_metadata_t {
    _placeholder: (),
}
pub struct rocksdb_envoptions_t {
    _placeholder: (),
}
pub struct rocksdb_ingestexternalfileoptions_t {
    _placeholder: (),
}
pub struct rocksdb_sstfilewriter_t {
    _placeholder: (),
}
pub struct rocksdb_perfcontext_t {
    _placeholder: (),
}
pub struct rocksdb_transactiondb_options_t {
    _placeholder: (),
}
pub struct rocksdb_transactiondb_t {
    _placeholder: (),
}
pub struct rocksdb_transaction_options_t {
    _placeholder: (),
}
pub struct rocksdb_optimistictransactiondb_t {
    _placeholder: (),
}
pub struct rocksdb_optimistictransaction_options_t {
    _placeholder: (),
}
pub struct rocksdb_transaction_t {
    _placeholder: (),
}
pub struct rocksdb_wal_iterator_t {
    _placeholder: (),
}
pub struct rocksdb_wal_readoptions_t {
    _placeholder: (),
}
pub struct rocksdb_memory_consumers_t {
    _placeholder: (),
}
pub struct rocksdb_memory_usage_t {
    _placeholder: (),
}
pub struct rocksdb_statistics_histogram_data_t {
    _placeholder: (),
}
pub struct rocksdb_wait_for_compact_options_t {
    _placeholder: (),
}
pub struct rocksdb_flushjobinfo_t {
    _placeholder: (),
}
pub struct rocksdb_compactionjobinfo_t {
    _placeholder: (),
}
pub struct rocksdb_subcompactionjobinfo_t {
    _placeholder: (),
}
pub struct rocksdb_externalfileingestioninfo_t {
    _placeholder: (),
}
pub struct rocksdb_eventlistener_t {
    _placeholder: (),
}
pub struct rocksdb_writestallinfo_t {
    _placeholder: (),
}
pub struct rocksdb_writestallcondition_t {
    _placeholder: (),
}
pub struct rocksdb_memtableinfo_t {
    _placeholder: (),
}
pub struct rocksdb_compactionservice_scheduleresponse_t {
    _placeholder: (),
}
pub struct rocksdb_compactionservice_jobinfo_t {
    _placeholder: (),
}
pub struct rocksdb_compactionservice_t {
    _placeholder: (),
}
pub struct rocksdb_compaction_service_options_override_t {
    _placeholder: (),
}
pub struct rocksdb_open_and_compact_options_t {
    _placeholder: (),
}

/// A borrowed byte range, returned by value by `rocksdb_iter_{key,value,timestamp}_slice` and
/// taken as an array by `rocksdb_batched_multi_get_cf_slice`. Layout-compatible with
/// RocksDB's `rocksdb_slice_t` (16 bytes on x86-64).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct rocksdb_slice_t {
    pub data: *const c_char,
    pub size: usize,
}

// Callback typedefs. The C names are part of the API (prototypes name them), so they are
// type aliases that cbindgen emits as `typedef <ret> (*name)(<params>);`.

/// Remote compaction: schedules a job; returns a response made with
/// `rocksdb_compactionservice_scheduleresponse_create*`.
pub type rocksdb_compaction_service_schedule_cb = Option<
    unsafe extern "C" fn(
        state: *mut c_void,
        info: *const rocksdb_compactionservice_jobinfo_t,
        compaction_service_input: *const c_char,
        input_len: usize,
    ) -> *mut rocksdb_compactionservice_scheduleresponse_t,
>;
/// Remote compaction: waits for a scheduled job and hands back its result.
pub type rocksdb_compaction_service_wait_cb = Option<
    unsafe extern "C" fn(
        state: *mut c_void,
        scheduled_job_id: *const c_char,
        result: *mut *mut c_char,
        result_len: *mut usize,
    ) -> c_int,
>;
/// Remote compaction: cancels every job still awaited.
pub type rocksdb_compaction_service_cancel_awaiting_jobs_cb =
    Option<unsafe extern "C" fn(state: *mut c_void)>;
/// Remote compaction: reports that a job's result was installed.
pub type rocksdb_compaction_service_on_installation_cb = Option<
    unsafe extern "C" fn(state: *mut c_void, scheduled_job_id: *const c_char, status: c_int),
>;

/// Event listener callbacks (`rocksdb_eventlistener_create`).
pub type on_flush_begin_cb =
    Option<unsafe extern "C" fn(*mut c_void, *mut rocksdb_t, *const rocksdb_flushjobinfo_t)>;
pub type on_flush_completed_cb =
    Option<unsafe extern "C" fn(*mut c_void, *mut rocksdb_t, *const rocksdb_flushjobinfo_t)>;
pub type on_compaction_begin_cb =
    Option<unsafe extern "C" fn(*mut c_void, *mut rocksdb_t, *const rocksdb_compactionjobinfo_t)>;
pub type on_compaction_completed_cb =
    Option<unsafe extern "C" fn(*mut c_void, *mut rocksdb_t, *const rocksdb_compactionjobinfo_t)>;
pub type on_subcompaction_begin_cb =
    Option<unsafe extern "C" fn(*mut c_void, *const rocksdb_subcompactionjobinfo_t)>;
pub type on_subcompaction_completed_cb =
    Option<unsafe extern "C" fn(*mut c_void, *const rocksdb_subcompactionjobinfo_t)>;
pub type on_external_file_ingested_cb = Option<
    unsafe extern "C" fn(*mut c_void, *mut rocksdb_t, *const rocksdb_externalfileingestioninfo_t),
>;
pub type on_background_error_cb =
    Option<unsafe extern "C" fn(*mut c_void, u32, *mut rocksdb_status_ptr_t)>;
pub type on_stall_conditions_changed_cb =
    Option<unsafe extern "C" fn(*mut c_void, *const rocksdb_writestallinfo_t)>;
/// Declared by upstream's header next to the listener callbacks; no function takes it.
pub type rocksdb_logger_logv_cb =
    Option<unsafe extern "C" fn(*mut c_void, log_level: u32, *const c_char)>;
pub type on_memtable_sealed_cb =
    Option<unsafe extern "C" fn(*mut c_void, *const rocksdb_memtableinfo_t)>;
