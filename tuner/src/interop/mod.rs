//! Playing programs outside koom: external engines over koom's protocol or the Hnefatafl Text
//! Protocol, the protocol itself, and a level connected to a hnefatafl-copenhagen server.

pub mod connect;
pub mod external;
pub mod protocol;
