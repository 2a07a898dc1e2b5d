//! End-to-end tests of the `koom` binary, one module a topic (one test binary, so the binary is
//! built and linked once).

#[path = "../common/mod.rs"]
mod common;

mod adjudication;
mod analyse;
mod connect;
mod engine_protocol;
mod external;
mod fit;
mod games;
mod headline;
mod hnefatafl_levels;
mod htp;
mod learning;
mod networks;
mod openings;
mod outside;
mod records;
mod reliability;
mod report_input;
mod reports;
mod run;
mod shards;
mod signals;
mod strength;
mod tune;
