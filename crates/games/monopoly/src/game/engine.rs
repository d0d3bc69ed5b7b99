//! The turn engine shared by simulation and trace: one player's turn, generic over where dice
//! and cards come from and over who watches. With [`NoObserver`] and infallible random sources
//! every event and error path compiles away, leaving the tight simulation loop.

use super::board::{advance, SquareKind, BOARD_SIZE, JAIL, KINDS};
use super::cards::{Card, CardEffect, CardSource, ChanceCard, ChestCard};
use super::rules::{Count, Rules};
use super::JailStrategy;

/// One throw of the two dice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Roll {
    /// The first die, 1 to its number of sides.
    pub first: u8,
    /// The second die, 1 to its number of sides.
    pub second: u8,
}

impl Roll {
    /// The 36 equally likely throws of two 6-sided dice, first die major.
    pub const ALL: [Roll; 36] = all_rolls();

    /// Throw number `index` (`0..sides²`, first die major) of two `sides`-sided dice.
    #[inline(always)]
    pub fn of(index: u32, sides: u8) -> Roll {
        let sides = u32::from(sides);
        Roll {
            first: (index / sides) as u8 + 1,
            second: (index % sides) as u8 + 1,
        }
    }

    /// Squares to move.
    #[inline(always)]
    pub fn sum(self) -> u8 {
        self.first + self.second
    }

    /// Whether both dice show the same face.
    #[inline(always)]
    pub fn is_double(self) -> bool {
        self.first == self.second
    }
}

const fn all_rolls() -> [Roll; 36] {
    let mut rolls = [Roll {
        first: 1,
        second: 1,
    }; 36];
    let mut i = 0;
    while i < 36 {
        rolls[i] = Roll {
            first: (i / 6) as u8 + 1,
            second: (i % 6) as u8 + 1,
        };
        i += 1;
    }
    rolls
}

/// Where dice throws come from: a random stream in simulation, a script in a trace.
pub trait DiceSource {
    /// Why a throw could not be made (`Infallible` for random dice).
    type Error;
    /// Throws both dice.
    fn roll(&mut self) -> Result<Roll, Self::Error>;
}

/// One player's token between turns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Player {
    index: u8,
    jail_turn: u8,
}

impl Player {
    /// On Go, not in jail: where every player starts a game.
    pub const START: Player = Player {
        index: 0,
        jail_turn: 0,
    };

    /// The token's 0-based board index (0 = Go).
    pub fn index(self) -> u8 {
        self.index
    }

    /// 0 when free; otherwise which turn in jail (1, 2 or 3) his next turn will be.
    pub fn jail_turn(self) -> u8 {
        self.jail_turn
    }

    /// Whether he is in jail (not just visiting).
    pub fn in_jail(self) -> bool {
        self.jail_turn > 0
    }

    #[inline(always)]
    fn send_to_jail(&mut self) {
        self.index = JAIL;
        self.jail_turn = 1;
    }
}

/// Why a player was sent to jail.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JailCause {
    /// He reached "Go to jail" (square 31).
    GoToJailSquare,
    /// He drew a Go to Jail card.
    Card,
    /// He threw doubles a third time in one turn.
    ThirdDoubles,
}

/// How a player got out of jail.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LeaveCause {
    /// He threw doubles (and moves that throw, with no extra throw).
    Doubles,
    /// It was his third turn in jail (he moves that throw whatever it is).
    ThirdTurn,
    /// He paid the fine at the start of his first jail turn (`short_stay`,
    /// `short_stay_full_turn`).
    PaidFine,
}

/// Something that happened during a turn. Square fields are the board's 1-based square numbers
/// (1 = Go, 11 = Jail, 40 = Boardwalk).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TraceEvent {
    /// A turn begins.
    TurnStart {
        /// 0-based player number within the game.
        player: u32,
        /// 1-based turn number.
        turn: u32,
        /// Where the token stands.
        square: u8,
        /// 0 when free; otherwise which turn in jail (1, 2 or 3) this is.
        jail_turn: u8,
    },
    /// The dice were thrown.
    Roll {
        /// The first die.
        first: u8,
        /// The second die.
        second: u8,
    },
    /// The token moved forward by the dice.
    Move {
        /// Square left.
        from: u8,
        /// Square reached.
        to: u8,
        /// Squares moved.
        steps: u8,
    },
    /// A card was drawn on a card square.
    CardDrawn {
        /// The card square.
        square: u8,
        /// The card.
        card: Card,
    },
    /// A card moved the token.
    CardMove {
        /// Square left.
        from: u8,
        /// Square reached.
        to: u8,
    },
    /// The player was sent to jail; his turn ends.
    SentToJail {
        /// Why.
        cause: JailCause,
    },
    /// He threw doubles and throws again.
    RollAgain,
    /// He got out of jail.
    LeaveJail {
        /// How.
        cause: LeaveCause,
    },
    /// He failed to get out and stays in jail; his turn ends.
    StayInJail {
        /// Which turn in jail this was (1 or 2).
        jail_turn: u8,
    },
    /// A landing was tallied on this square.
    Landing {
        /// The square counted.
        square: u8,
    },
}

/// Who watches a turn's events.
pub trait TurnObserver {
    /// Called for each event, in order.
    fn event(&mut self, event: TraceEvent);
}

/// Watches nothing: the simulation's observer, which compiles away.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoObserver;

impl TurnObserver for NoObserver {
    #[inline(always)]
    fn event(&mut self, _event: TraceEvent) {}
}

/// Plays one turn of `player` (number `player_id`, turn number `turn`, both for the events
/// only) under `rules`, adding each landing to `tally` (0-based index). With
/// [`Count::EveryThrow`] each throw of the dice ends in exactly one landing: the move's final
/// square, or Jail for a stay in jail or an arrest; with [`Count::TurnEnd`] the turn counts one
/// landing, where it ends. The dice's sides and the Chance deck are the sources' to follow;
/// `rules.go_to_jail` says whether the Go to jail corner arrests. Errors come only from the
/// sources (a script running out).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub fn take_turn<S, O, E>(
    jail: JailStrategy,
    rules: Rules,
    player: &mut Player,
    player_id: u32,
    turn: u32,
    src: &mut S,
    obs: &mut O,
    tally: &mut [u32; BOARD_SIZE],
) -> Result<(), E>
where
    S: DiceSource<Error = E> + CardSource<Error = E>,
    O: TurnObserver,
{
    obs.event(TraceEvent::TurnStart {
        player: player_id,
        turn,
        square: player.index + 1,
        jail_turn: player.jail_turn,
    });
    let every = rules.count == Count::EveryThrow;
    let table = TurnRules {
        every,
        go_to_jail: rules.go_to_jail,
    };
    if player.jail_turn > 0 {
        jail_turn(jail, table, player, src, obs, tally)?;
    } else {
        free_turn(table, player, src, obs, tally)?;
    }
    land(!every, player, obs, tally);
    Ok(())
}

/// What the moves of a turn read of the [`Rules`]: whether each throw counts a landing, and
/// whether the Go to jail corner arrests.
#[derive(Clone, Copy)]
struct TurnRules {
    every: bool,
    go_to_jail: bool,
}

/// A turn that starts free: up to three throws; `table.every` counts a landing per throw.
#[inline(always)]
fn free_turn<S, O, E>(
    table: TurnRules,
    player: &mut Player,
    src: &mut S,
    obs: &mut O,
    tally: &mut [u32; BOARD_SIZE],
) -> Result<(), E>
where
    S: DiceSource<Error = E> + CardSource<Error = E>,
    O: TurnObserver,
{
    for throw in 0..3 {
        let roll = src.roll()?;
        obs.event(TraceEvent::Roll {
            first: roll.first,
            second: roll.second,
        });
        if roll.is_double() && throw == 2 {
            obs.event(TraceEvent::SentToJail {
                cause: JailCause::ThirdDoubles,
            });
            player.send_to_jail();
            land(table.every, player, obs, tally);
            return Ok(());
        }
        let jailed = move_and_land(table, player, roll.sum(), src, obs, tally)?;
        if jailed || !roll.is_double() {
            return Ok(());
        }
        obs.event(TraceEvent::RollAgain);
    }
    Ok(())
}

/// A turn that starts in jail; `table.every` counts a landing per throw.
#[inline(always)]
fn jail_turn<S, O, E>(
    jail: JailStrategy,
    table: TurnRules,
    player: &mut Player,
    src: &mut S,
    obs: &mut O,
    tally: &mut [u32; BOARD_SIZE],
) -> Result<(), E>
where
    S: DiceSource<Error = E> + CardSource<Error = E>,
    O: TurnObserver,
{
    if jail != JailStrategy::LongStay {
        obs.event(TraceEvent::LeaveJail {
            cause: LeaveCause::PaidFine,
        });
    }
    if jail == JailStrategy::ShortStayFullTurn {
        player.jail_turn = 0;
        return free_turn(table, player, src, obs, tally);
    }
    let roll = src.roll()?;
    obs.event(TraceEvent::Roll {
        first: roll.first,
        second: roll.second,
    });
    if jail == JailStrategy::LongStay {
        if roll.is_double() {
            obs.event(TraceEvent::LeaveJail {
                cause: LeaveCause::Doubles,
            });
        } else if player.jail_turn >= 3 {
            obs.event(TraceEvent::LeaveJail {
                cause: LeaveCause::ThirdTurn,
            });
        } else {
            obs.event(TraceEvent::StayInJail {
                jail_turn: player.jail_turn,
            });
            player.jail_turn += 1;
            land(table.every, player, obs, tally);
            return Ok(());
        }
    }
    player.jail_turn = 0;
    move_and_land(table, player, roll.sum(), src, obs, tally)?;
    Ok(())
}

/// Counts a landing where the token stands, if `counted`.
#[inline(always)]
fn land<O: TurnObserver>(
    counted: bool,
    player: &Player,
    obs: &mut O,
    tally: &mut [u32; BOARD_SIZE],
) {
    if !counted {
        return;
    }
    let slot = &mut tally[usize::from(player.index)];
    *slot = slot.saturating_add(1);
    obs.event(TraceEvent::Landing {
        square: player.index + 1,
    });
}

/// Moves by the dice, follows the rules of the squares reached, and counts the final square
/// if `table.every`. Returns whether the player went to jail.
#[inline(always)]
fn move_and_land<S, O, E>(
    table: TurnRules,
    player: &mut Player,
    steps: u8,
    src: &mut S,
    obs: &mut O,
    tally: &mut [u32; BOARD_SIZE],
) -> Result<bool, E>
where
    S: DiceSource<Error = E> + CardSource<Error = E>,
    O: TurnObserver,
{
    let from = player.index;
    player.index = advance(from, steps);
    obs.event(TraceEvent::Move {
        from: from + 1,
        to: player.index + 1,
        steps,
    });
    let jailed = resolve(table.go_to_jail, player, src, obs)?;
    land(table.every, player, obs, tally);
    Ok(jailed)
}

/// Applies "Go to jail" (when `go_to_jail`; otherwise that corner is an ordinary square) and
/// card squares until the token rests. Returns whether jailed.
#[inline(always)]
fn resolve<S, O, E>(
    go_to_jail: bool,
    player: &mut Player,
    src: &mut S,
    obs: &mut O,
) -> Result<bool, E>
where
    S: CardSource<Error = E>,
    O: TurnObserver,
{
    loop {
        let at = player.index;
        let (card, effect) = match KINDS[usize::from(at)] {
            SquareKind::Plain => return Ok(false),
            SquareKind::GoToJail if !go_to_jail => return Ok(false),
            SquareKind::GoToJail => {
                obs.event(TraceEvent::SentToJail {
                    cause: JailCause::GoToJailSquare,
                });
                player.send_to_jail();
                return Ok(true);
            }
            SquareKind::Chance => {
                let card = src.chance()?;
                (Card::Chance(card), card.effect(at))
            }
            SquareKind::CommunityChest => {
                let card = src.community_chest()?;
                (Card::CommunityChest(card), card.effect())
            }
        };
        obs.event(TraceEvent::CardDrawn {
            square: at + 1,
            card,
        });
        match effect {
            CardEffect::Stay => return Ok(false),
            CardEffect::Jail => {
                obs.event(TraceEvent::SentToJail {
                    cause: JailCause::Card,
                });
                player.send_to_jail();
                return Ok(true);
            }
            CardEffect::MoveTo(to) => {
                obs.event(TraceEvent::CardMove {
                    from: at + 1,
                    to: to + 1,
                });
                player.index = to;
            }
        }
    }
}

/// Where a token that has just moved onto `index` comes to rest if the card squares it meets
/// draw `chance` and `chest` (a move meets at most one of each deck): `None` when it goes to
/// jail. The rules are [`take_turn`]'s own with the Go to jail corner in play (the default
/// rules, the only ones the state machine plays), for building lookup tables from.
pub(super) fn settle(index: u8, chance: ChanceCard, chest: ChestCard) -> Option<u8> {
    struct Fixed(ChanceCard, ChestCard);
    impl CardSource for Fixed {
        type Error = std::convert::Infallible;
        fn chance(&mut self) -> Result<ChanceCard, Self::Error> {
            Ok(self.0)
        }
        fn community_chest(&mut self) -> Result<ChestCard, Self::Error> {
            Ok(self.1)
        }
    }
    let mut player = Player {
        index,
        jail_turn: 0,
    };
    match resolve(
        true,
        &mut player,
        &mut Fixed(chance, chest),
        &mut NoObserver,
    ) {
        Ok(jailed) => (!jailed).then_some(player.index),
        Err(never) => match never {},
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_36_rolls_are_all_distinct_with_six_doubles() {
        let mut seen = std::collections::HashSet::new();
        for roll in Roll::ALL {
            assert!((1..=6).contains(&roll.first) && (1..=6).contains(&roll.second));
            assert!(seen.insert((roll.first, roll.second)));
        }
        assert_eq!(Roll::ALL.iter().filter(|r| r.is_double()).count(), 6);
        let sevens = Roll::ALL.iter().filter(|r| r.sum() == 7).count();
        assert_eq!(sevens, 6);
        for (index, roll) in Roll::ALL.iter().enumerate() {
            assert_eq!(Roll::of(index as u32, 6), *roll);
        }
        assert_eq!(
            Roll::of(15, 4),
            Roll {
                first: 4,
                second: 4
            }
        );
    }
}
