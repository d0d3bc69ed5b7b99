//! The board: square names, colour groups, and the squares whose landing triggers a rule.
//!
//! Squares are addressed by a 0-based *index* here (index 0 = square 1 "Go", index 10 = square
//! 11 "Jail"); the board's 1-based *square numbers* (1 = Go to 40 = Boardwalk) appear only in
//! traces.

/// Number of squares on the board.
pub const BOARD_SIZE: usize = 40;

/// Index of "Go" (square 1).
pub const GO: u8 = 0;
/// Index of "Jail" (square 11), which also counts "just visiting".
pub const JAIL: u8 = 10;
/// Index of "Go to jail" (square 31).
pub const GO_TO_JAIL: u8 = 30;
/// Index of "St. Charles Place" (square 12).
pub const ST_CHARLES: u8 = 11;
/// Index of "Illinois Avenue" (square 25).
pub const ILLINOIS: u8 = 24;
/// Index of "Reading Railroad" (square 6).
pub const READING_RAILROAD: u8 = 5;
/// Index of "Boardwalk" (square 40).
pub const BOARDWALK: u8 = 39;

/// Name and colour group of each square, by index (index 0 = square 1 "Go"), with the names
/// printed on the standard US board. Groups: those of [`GROUPS`].
pub const SQUARES: [(&str, &str); BOARD_SIZE] = [
    ("Go", "corner"),
    ("Mediterranean Avenue", "brown"),
    ("Community Chest", "community_chest"),
    ("Baltic Avenue", "brown"),
    ("Income Tax", "tax"),
    ("Reading Railroad", "railroad"),
    ("Oriental Avenue", "light_blue"),
    ("Chance", "chance"),
    ("Vermont Avenue", "light_blue"),
    ("Connecticut Avenue", "light_blue"),
    ("Jail", "corner"),
    ("St. Charles Place", "pink"),
    ("Electric Company", "utility"),
    ("States Avenue", "pink"),
    ("Virginia Avenue", "pink"),
    ("Pennsylvania Railroad", "railroad"),
    ("St. James Place", "orange"),
    ("Community Chest", "community_chest"),
    ("Tennessee Avenue", "orange"),
    ("New York Avenue", "orange"),
    ("Free Parking", "corner"),
    ("Kentucky Avenue", "red"),
    ("Chance", "chance"),
    ("Indiana Avenue", "red"),
    ("Illinois Avenue", "red"),
    ("B & O Railroad", "railroad"),
    ("Atlantic Avenue", "yellow"),
    ("Ventnor Avenue", "yellow"),
    ("Water Works", "utility"),
    ("Marvin Gardens", "yellow"),
    ("Go to jail", "corner"),
    ("Pacific Avenue", "green"),
    ("North Carolina Avenue", "green"),
    ("Community Chest", "community_chest"),
    ("Pennsylvania Avenue", "green"),
    ("Short Line Railroad", "railroad"),
    ("Chance", "chance"),
    ("Park Place", "dark_blue"),
    ("Luxury Tax", "tax"),
    ("Boardwalk", "dark_blue"),
];

/// The groups of [`SQUARES`]: the eight colour groups in board order, then the kinds of the
/// other squares (the four corners are one group: Go, Jail, Free Parking and Go to jail).
pub const GROUPS: [&str; 14] = [
    "brown",
    "light_blue",
    "pink",
    "orange",
    "red",
    "yellow",
    "green",
    "dark_blue",
    "railroad",
    "utility",
    "tax",
    "chance",
    "community_chest",
    "corner",
];

/// Each square's group, as an index into [`GROUPS`] (index 0 = Go).
pub const GROUP_OF: [u8; BOARD_SIZE] = group_of();

const fn same(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

const fn group_of() -> [u8; BOARD_SIZE] {
    let mut of = [0u8; BOARD_SIZE];
    let mut square = 0;
    while square < BOARD_SIZE {
        let mut group = 0;
        while !same(GROUPS[group], SQUARES[square].1) {
            // A group missing from GROUPS runs off its end: a compile-time error.
            group += 1;
        }
        of[square] = group as u8;
        square += 1;
    }
    of
}

/// What landing on a square does to the token's movement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SquareKind {
    /// Nothing: the token stays.
    Plain,
    /// Draw a Chance card.
    Chance,
    /// Draw a Community Chest card.
    CommunityChest,
    /// Go straight to jail.
    GoToJail,
}

/// The kind of each square, by index.
pub const KINDS: [SquareKind; BOARD_SIZE] = kinds();

const fn kinds() -> [SquareKind; BOARD_SIZE] {
    let mut kinds = [SquareKind::Plain; BOARD_SIZE];
    kinds[7] = SquareKind::Chance;
    kinds[22] = SquareKind::Chance;
    kinds[36] = SquareKind::Chance;
    kinds[2] = SquareKind::CommunityChest;
    kinds[17] = SquareKind::CommunityChest;
    kinds[33] = SquareKind::CommunityChest;
    kinds[GO_TO_JAIL as usize] = SquareKind::GoToJail;
    kinds
}

/// The index reached by moving `steps` squares forward from `index`, wrapping past Go
/// (meaningful for `index < 40` and `steps <= 40`; a throw moves at most 12).
#[inline(always)]
pub const fn advance(index: u8, steps: u8) -> u8 {
    let to = index.wrapping_add(steps);
    if to >= BOARD_SIZE as u8 {
        to.wrapping_sub(BOARD_SIZE as u8)
    } else {
        to
    }
}

/// The first railroad strictly forward of `index` (railroads are at indices 5, 15, 25, 35).
pub const fn nearest_railroad(index: u8) -> u8 {
    let index = index as u16 % BOARD_SIZE as u16;
    ((index + 5) / 10 * 10 + 5) as u8 % BOARD_SIZE as u8
}

/// The first utility strictly forward of `index` (Electric Company 12, Water Works 28).
pub const fn nearest_utility(index: u8) -> u8 {
    if index >= 12 && index < 28 {
        28
    } else {
        12
    }
}

/// The index three squares back from `index`, wrapping behind Go.
pub const fn back_three(index: u8) -> u8 {
    ((index as u16 % BOARD_SIZE as u16 + BOARD_SIZE as u16 - 3) % BOARD_SIZE as u16) as u8
}

/// The printed name of the square at `index` ("?" outside the board).
pub fn name(index: u8) -> &'static str {
    SQUARES
        .get(usize::from(index))
        .map_or("?", |square| square.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn special_squares_have_the_seed_names() {
        for (index, kind) in KINDS.iter().enumerate() {
            let expected = match kind {
                SquareKind::Plain => continue,
                SquareKind::Chance => "Chance",
                SquareKind::CommunityChest => "Community Chest",
                SquareKind::GoToJail => "Go to jail",
            };
            assert_eq!(SQUARES[index].0, expected);
        }
        assert_eq!(SQUARES[usize::from(JAIL)].0, "Jail");
        assert_eq!(SQUARES[usize::from(ILLINOIS)].0, "Illinois Avenue");
        assert_eq!(SQUARES[usize::from(ST_CHARLES)].0, "St. Charles Place");
        assert_eq!(SQUARES[usize::from(READING_RAILROAD)].0, "Reading Railroad");
        assert_eq!(SQUARES[usize::from(BOARDWALK)].0, "Boardwalk");
    }

    #[test]
    fn every_square_group_is_a_known_group() {
        let groups = [
            "brown",
            "light_blue",
            "pink",
            "orange",
            "red",
            "yellow",
            "green",
            "dark_blue",
            "railroad",
            "utility",
            "tax",
            "chance",
            "community_chest",
            "corner",
        ];
        for (name, group) in SQUARES {
            assert!(groups.contains(&group), "{name} has group {group}");
        }
        let railroads = SQUARES.iter().filter(|s| s.1 == "railroad").count();
        assert_eq!(railroads, 4);
        assert_eq!(groups, GROUPS);
        for (square, &group) in GROUP_OF.iter().enumerate() {
            assert_eq!(GROUPS[usize::from(group)], SQUARES[square].1);
        }
        let sizes: Vec<usize> = (0..GROUPS.len())
            .map(|g| GROUP_OF.iter().filter(|&&of| usize::from(of) == g).count())
            .collect();
        assert_eq!(sizes, [2, 3, 3, 3, 3, 3, 3, 2, 4, 2, 2, 3, 3, 4]);
    }

    #[test]
    fn nearest_railroad_and_utility_are_forward_from_each_chance() {
        assert_eq!(nearest_railroad(7), 15);
        assert_eq!(nearest_railroad(22), 25);
        assert_eq!(nearest_railroad(36), 5);
        assert_eq!(nearest_utility(7), 12);
        assert_eq!(nearest_utility(22), 28);
        assert_eq!(nearest_utility(36), 12);
        for index in 0..BOARD_SIZE as u8 {
            assert_eq!(SQUARES[usize::from(nearest_railroad(index))].1, "railroad");
            assert_eq!(SQUARES[usize::from(nearest_utility(index))].1, "utility");
            assert_ne!(nearest_railroad(index), index);
        }
    }

    #[test]
    fn moves_wrap_past_go_in_both_directions() {
        assert_eq!(advance(35, 12), 7);
        assert_eq!(advance(0, 10), 10);
        assert_eq!(advance(28, 12), 0);
        assert_eq!(back_three(36), 33);
        assert_eq!(back_three(7), 4);
        assert_eq!(back_three(1), 38);
        assert_eq!(name(40), "?");
        assert_eq!(nearest_railroad(255), 25);
        assert_eq!(back_three(255), 12);
    }
}
