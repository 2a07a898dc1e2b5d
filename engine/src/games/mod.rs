//! One folder per game. The list below declares each game's module and registers its type
//! ([`crate::registry`]): a new game is its folder and one line here.

crate::registry::games! {
    ludo::Ludo,
    thud::Thud,
    trente_douze::TrenteDouze,
    hnefatafl::Hnefatafl,
}
