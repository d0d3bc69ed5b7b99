//! Interactive Twenty-One against the computer, over any line reader and writer: the rules
//! play through [`play_round`], and this module shows their events and asks the person.
//!
//! Prompts are printed on lines of their own, so a transcript read back from a pipe stays one
//! message per line. End of input at any prompt ends the session cleanly.

use std::io::{self, BufRead, Write};

use crate::game::{keep_probability, play_round, Card, Deck, Event, Hand, Player, Rules};
use experiment_engine::rng::TrialRng;

/// What a finished interactive session counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct SessionStats {
    /// Games played to their result (a game cut short by end of input is not counted).
    pub games: u64,
    /// Games the player won.
    pub wins: u64,
}

/// Plays Twenty-One interactively: reads the player's answers from `input`, writes the game to
/// `output`, and shuffles a fresh deck from `rng` for every game.
///
/// Before each decision it shows the player's cards and score and the chance that the next card
/// keeps him at or under 21, then asks `HIT or STAY?`; after each game it asks
/// `PLAY AGAIN (Y/N)?`. Answers are trimmed and accepted in any case; anything else is
/// rejected with a message and asked again. End of input at any prompt ends the session
/// (returning `Ok`); only errors of `input` or `output` themselves are returned as `Err`.
pub(super) fn play_session(
    input: &mut impl BufRead,
    output: &mut impl Write,
    rng: &mut TrialRng,
) -> io::Result<SessionStats> {
    writeln!(
        output,
        "TWENTY-ONE: get closer to 21 than the computer without going over."
    )?;
    let mut stats = SessionStats::default();
    loop {
        let mut deck = Deck::shuffled(rng);
        match play_game(input, output, &mut deck)? {
            Some(won) => {
                stats.games += 1;
                stats.wins += u64::from(won);
            }
            None => break,
        }
        let again = ask(
            input,
            output,
            "PLAY AGAIN (Y/N)?",
            "Please answer Y or N.",
            &[("Y", true), ("N", false)],
        )?;
        if again != Some(true) {
            break;
        }
    }
    writeln!(
        output,
        "Thanks for playing: you won {} of {} games.",
        stats.wins, stats.games
    )?;
    output.flush()?;
    Ok(stats)
}

/// Longest answer kept, in bytes: a longer line is refused, and read to its end without
/// being kept, so an endless line costs no memory.
pub(super) const MAX_ANSWER_BYTES: usize = 1024;

/// One line of input, read with [`read_answer`].
enum Answer {
    /// The line (at most [`MAX_ANSWER_BYTES`] bytes before its newline) is in the buffer.
    Line,
    /// The line was longer; the buffer is empty and the line skipped.
    TooLong,
    /// End of input before any byte of a line.
    End,
}

/// Reads one line into `line` (cleared first), keeping at most [`MAX_ANSWER_BYTES`] bytes.
fn read_answer(input: &mut impl BufRead, line: &mut Vec<u8>) -> io::Result<Answer> {
    line.clear();
    let (mut any, mut too_long) = (false, false);
    loop {
        let buffer = match input.fill_buf() {
            Ok(buffer) => buffer,
            Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
            Err(error) => return Err(error),
        };
        if buffer.is_empty() {
            break;
        }
        any = true;
        let newline = buffer.iter().position(|&b| b == b'\n');
        let text = &buffer[..newline.unwrap_or(buffer.len())];
        if !too_long && line.len() + text.len() <= MAX_ANSWER_BYTES {
            line.extend_from_slice(text);
        } else {
            too_long = true;
            line.clear();
        }
        let used = newline.map_or(buffer.len(), |at| at + 1);
        input.consume(used);
        if newline.is_some() {
            break;
        }
    }
    Ok(match (any, too_long) {
        (false, _) => Answer::End,
        (true, true) => Answer::TooLong,
        (true, false) => Answer::Line,
    })
}

/// Asks `prompt` until the answer (trimmed, any case) is one of `answers`; `None` at end of
/// input. An answer longer than [`MAX_ANSWER_BYTES`] is refused with what is expected.
fn ask<T: Copy>(
    input: &mut impl BufRead,
    output: &mut impl Write,
    prompt: &str,
    complaint: &str,
    answers: &[(&str, T)],
) -> io::Result<Option<T>> {
    let mut line = Vec::new();
    loop {
        writeln!(output, "{prompt}")?;
        output.flush()?;
        match read_answer(input, &mut line)? {
            Answer::End => return Ok(None),
            Answer::TooLong => {
                writeln!(
                    output,
                    "That answer is longer than {MAX_ANSWER_BYTES} bytes. {complaint}"
                )?;
                continue;
            }
            Answer::Line => {}
        }
        let text = String::from_utf8_lossy(&line);
        let answer = text.trim();
        if let Some(&(_, choice)) = answers
            .iter()
            .find(|(word, _)| word.eq_ignore_ascii_case(answer))
        {
            return Ok(Some(choice));
        }
        writeln!(output, "{complaint}")?;
    }
}

/// Why an interactive game stopped before its end.
enum Stop {
    /// The input ended at a prompt.
    EndOfInput,
    /// Reading or writing failed.
    Io(io::Error),
}

impl From<io::Error> for Stop {
    fn from(error: io::Error) -> Self {
        Stop::Io(error)
    }
}

/// The person at the terminal: shows every card dealt and asks before every decision.
struct Terminal<'a, R, W> {
    input: &'a mut R,
    output: &'a mut W,
    /// The player's cards, in the order dealt.
    cards: Vec<Card>,
    /// The computer's cards, in the order dealt.
    dealer_cards: Vec<Card>,
}

impl<R: BufRead, W: Write> Player for Terminal<'_, R, W> {
    type Stop = Stop;

    fn hit(&mut self, hand: &Hand) -> Result<bool, Stop> {
        show(self.output, "Your cards", &self.cards)?;
        writeln!(
            self.output,
            "Chance the next card keeps you at or under 21: {:.1}%",
            100.0 * keep_probability(hand)
        )?;
        let hit = ask(
            self.input,
            self.output,
            "HIT or STAY?",
            "Please answer HIT or STAY.",
            &[("HIT", true), ("STAY", false)],
        )?;
        match hit {
            None => Err(Stop::EndOfInput),
            Some(true) => Ok(true),
            Some(false) => {
                writeln!(self.output, "You stay with {}.", hand.total())?;
                Ok(false)
            }
        }
    }

    fn event(&mut self, event: Event) -> Result<(), Stop> {
        let out = &mut *self.output;
        match event {
            Event::PlayerCard(card) => {
                if self.cards.len() >= 2 {
                    writeln!(out, "You draw {card}.")?;
                }
                self.cards.push(card);
            }
            Event::DealerCard(card) => {
                self.dealer_cards.push(card);
                let dealer = Hand::from_cards(&self.dealer_cards);
                match self.dealer_cards.len() {
                    0 | 1 => {}
                    2 => show(out, "Computer's cards", &self.dealer_cards)?,
                    _ => writeln!(out, "Computer draws {card} (score {}).", dealer.total())?,
                }
            }
            Event::Finished(outcome) => {
                let (player, dealer) = (outcome.player_total, outcome.dealer_total);
                if outcome.player_bust {
                    show(out, "Your cards", &self.cards)?;
                    writeln!(out, "You bust with {player}. The computer wins.")?;
                } else if outcome.dealer_bust {
                    writeln!(out, "Computer busts with {dealer}. You win!")?;
                } else if player > dealer {
                    writeln!(out, "You win: {player} beats {dealer}.")?;
                } else if player < dealer {
                    writeln!(out, "Computer wins: {dealer} beats {player}.")?;
                } else {
                    writeln!(out, "Tie at {player}: the computer wins.")?;
                }
            }
        }
        Ok(())
    }
}

/// Writes `cards` and their score, e.g. `Your cards: 10 of hearts, 6 of spades (score 16)`.
fn show(output: &mut impl Write, whose: &str, cards: &[Card]) -> io::Result<()> {
    let listed: Vec<String> = cards.iter().map(Card::to_string).collect();
    writeln!(
        output,
        "{whose}: {} (score {})",
        listed.join(", "),
        Hand::from_cards(cards).total()
    )
}

/// Plays one game from `deck`: `Some(player won)`, or `None` if input ended first.
fn play_game(
    input: &mut impl BufRead,
    output: &mut impl Write,
    deck: &mut Deck,
) -> io::Result<Option<bool>> {
    writeln!(output)?;
    writeln!(output, "New game.")?;
    let mut terminal = Terminal {
        input,
        output,
        cards: Vec::new(),
        dealer_cards: Vec::new(),
    };
    match play_round(deck, &Rules::default(), &mut terminal) {
        Ok(outcome) => Ok(Some(outcome.player_won)),
        Err(Stop::EndOfInput) => Ok(None),
        Err(Stop::Io(error)) => Err(error),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Suit;
    use experiment_engine::rng::trial_rng;

    fn card(rank: u8, suit: Suit) -> Card {
        Card::new(rank, suit).expect("test ranks are valid")
    }

    fn run_game(top: &[Card], answers: &str) -> (Option<bool>, String) {
        let mut deck = Deck::stacked(top).expect("distinct cards");
        let mut output = Vec::new();
        let result = play_game(&mut answers.as_bytes(), &mut output, &mut deck)
            .expect("in-memory I/O cannot fail");
        (result, String::from_utf8(output).expect("output is UTF-8"))
    }

    fn run_session(seed: u64, answers: &str) -> (SessionStats, String) {
        let mut output = Vec::new();
        let stats = play_session(
            &mut answers.as_bytes(),
            &mut output,
            &mut trial_rng(seed, 0, 0),
        )
        .expect("in-memory I/O cannot fail");
        (stats, String::from_utf8(output).expect("output is UTF-8"))
    }

    #[test]
    fn scripted_game_shows_every_step_and_rejects_bad_answers() {
        use Suit::*;
        let top = [
            card(10, Hearts),
            card(6, Spades),
            card(2, Clubs),
            card(9, Diamonds),
            card(7, Clubs),
            card(1, Hearts),
            card(5, Hearts),
        ];
        let (result, text) = run_game(&top, "  hIt \nmaybe\n\nStay\n");
        assert_eq!(result, Some(true));
        let expected = "\n\
            New game.\n\
            Your cards: 10 of hearts, 6 of spades (score 16)\n\
            Chance the next card keeps you at or under 21: 40.0%\n\
            HIT or STAY?\n\
            You draw 2 of clubs.\n\
            Your cards: 10 of hearts, 6 of spades, 2 of clubs (score 18)\n\
            Chance the next card keeps you at or under 21: 22.4%\n\
            HIT or STAY?\n\
            Please answer HIT or STAY.\n\
            HIT or STAY?\n\
            Please answer HIT or STAY.\n\
            HIT or STAY?\n\
            You stay with 18.\n\
            Computer's cards: 9 of diamonds, 7 of clubs (score 16)\n\
            Computer draws A of hearts (score 17).\n\
            You win: 18 beats 17.\n";
        assert_eq!(text, expected);
    }

    #[test]
    fn player_bust_ends_the_game_before_the_computer_plays() {
        use Suit::*;
        let top = [card(10, Hearts), card(5, Spades), card(13, Clubs)];
        let (result, text) = run_game(&top, "HIT\n");
        assert_eq!(result, Some(false));
        assert!(text.ends_with(
            "You draw K of clubs.\n\
             Your cards: 10 of hearts, 5 of spades, K of clubs (score 25)\n\
             You bust with 25. The computer wins.\n"
        ));
        assert!(!text.contains("Computer's cards"));
    }

    #[test]
    fn computer_bust_and_tie_are_announced() {
        use Suit::*;
        let bust = [
            card(10, Hearts),
            card(8, Spades),
            card(10, Clubs),
            card(6, Clubs),
            card(12, Hearts),
        ];
        let (result, text) = run_game(&bust, "stay\n");
        assert_eq!(result, Some(true));
        assert!(text.ends_with(
            "Computer's cards: 10 of clubs, 6 of clubs (score 16)\n\
             Computer draws Q of hearts (score 26).\n\
             Computer busts with 26. You win!\n"
        ));
        let tie = [
            card(10, Hearts),
            card(8, Spades),
            card(1, Clubs),
            card(7, Clubs),
        ];
        let (result, text) = run_game(&tie, "STAY\n");
        assert_eq!(result, Some(false));
        assert!(text.ends_with(
            "Computer's cards: A of clubs, 7 of clubs (score 18)\n\
             Tie at 18: the computer wins.\n"
        ));
    }

    #[test]
    fn whole_session_with_a_fixed_seed_replays_its_deck_and_validates_answers() {
        let answers = "what\nstay\nyes\ny\n STAY \nN\n";
        let (stats, text) = run_session(2024, answers);
        // The session's first deck is the first shuffle of the same stream.
        let mut rng = trial_rng(2024, 0, 0);
        let mut first = Deck::shuffled(&mut rng);
        let mut second = Deck::shuffled(&mut rng);
        let opening = |deck: &mut Deck| {
            let cards = [deck.deal(), deck.deal()].map(|c| c.expect("fresh deck"));
            let hand = Hand::from_cards(&cards);
            format!(
                "Your cards: {}, {} (score {})\n\
                 Chance the next card keeps you at or under 21: {:.1}%\n",
                cards[0],
                cards[1],
                hand.total(),
                100.0 * keep_probability(&hand)
            )
        };
        let first_opening = opening(&mut first);
        let second_opening = opening(&mut second);
        assert!(text.starts_with(&format!(
            "TWENTY-ONE: get closer to 21 than the computer without going over.\n\
             \n\
             New game.\n\
             {first_opening}\
             HIT or STAY?\n\
             Please answer HIT or STAY.\n\
             HIT or STAY?\n\
             You stay with "
        )));
        assert!(text.contains(&format!("New game.\n{second_opening}HIT or STAY?\n")));
        assert!(text.contains("PLAY AGAIN (Y/N)?\nPlease answer Y or N.\nPLAY AGAIN (Y/N)?\n"));
        assert_eq!(text.matches("New game.").count(), 2);
        assert_eq!(stats.games, 2);
        assert!(text.ends_with(&format!(
            "PLAY AGAIN (Y/N)?\nThanks for playing: you won {} of 2 games.\n",
            stats.wins
        )));
    }

    #[test]
    fn whole_session_golden_transcript() {
        let (stats, text) = run_session(1, "HIT\nhit me\n stay\nmaybe\nn\n");
        let expected = "TWENTY-ONE: get closer to 21 than the computer without going over.\n\
            \n\
            New game.\n\
            Your cards: 2 of clubs, 4 of spades (score 6)\n\
            Chance the next card keeps you at or under 21: 100.0%\n\
            HIT or STAY?\n\
            You draw J of clubs.\n\
            Your cards: 2 of clubs, 4 of spades, J of clubs (score 16)\n\
            Chance the next card keeps you at or under 21: 36.7%\n\
            HIT or STAY?\n\
            Please answer HIT or STAY.\n\
            HIT or STAY?\n\
            You stay with 16.\n\
            Computer's cards: J of diamonds, 2 of spades (score 12)\n\
            Computer draws 2 of diamonds (score 14).\n\
            Computer draws 5 of spades (score 19).\n\
            Computer wins: 19 beats 16.\n\
            PLAY AGAIN (Y/N)?\n\
            Please answer Y or N.\n\
            PLAY AGAIN (Y/N)?\n\
            Thanks for playing: you won 0 of 1 games.\n";
        assert_eq!(text, expected);
        assert_eq!(stats, SessionStats { games: 1, wins: 0 });
    }

    #[test]
    fn end_of_input_mid_game_ends_the_session_cleanly() {
        let (stats, text) = run_session(5, "hit\n");
        assert_eq!(stats, SessionStats::default());
        assert!(text.ends_with("Thanks for playing: you won 0 of 0 games.\n"));
        let (stats, _) = run_session(5, "");
        assert_eq!(stats.games, 0);
        // End of input at the play-again prompt still counts the finished game.
        let (stats, text) = run_session(5, "stay\n");
        assert_eq!(stats.games, 1);
        assert!(text.ends_with(&format!(
            "PLAY AGAIN (Y/N)?\nThanks for playing: you won {} of 1 games.\n",
            stats.wins
        )));
    }

    #[test]
    fn an_over_long_answer_is_refused_with_what_is_expected_and_not_kept() {
        let mut input = b"x".repeat(5_000_000);
        input.extend_from_slice(b"\nstay\nn\n");
        let mut reader = io::BufReader::with_capacity(4096, &input[..]);
        let mut output = Vec::new();
        let stats = play_session(&mut reader, &mut output, &mut trial_rng(9, 0, 0))
            .expect("in-memory I/O cannot fail");
        assert_eq!(stats.games, 1);
        let text = String::from_utf8(output).expect("output is UTF-8");
        assert!(text.contains(
            "HIT or STAY?\nThat answer is longer than 1024 bytes. Please answer HIT or STAY.\n\
             HIT or STAY?\n"
        ));
        // A line of exactly the limit is read (and refused as a wrong answer, not as too long).
        let mut line = Vec::new();
        let exact = [b"y".repeat(MAX_ANSWER_BYTES), b"\n".to_vec()].concat();
        assert!(matches!(
            read_answer(&mut &exact[..], &mut line).expect("read"),
            Answer::Line
        ));
        assert_eq!(line.len(), MAX_ANSWER_BYTES);
        let over = b"y".repeat(MAX_ANSWER_BYTES + 1);
        assert!(matches!(
            read_answer(&mut &over[..], &mut line).expect("read"),
            Answer::TooLong
        ));
        assert!(line.capacity() <= 2 * MAX_ANSWER_BYTES + 8192);
    }

    #[test]
    fn invalid_utf8_answers_are_rejected_not_errors() {
        let mut output = Vec::new();
        let input: &[u8] = b"\xff\xfe\nstay\nn\n";
        let stats = play_session(&mut &input[..], &mut output, &mut trial_rng(9, 0, 0))
            .expect("in-memory I/O cannot fail");
        assert_eq!(stats.games, 1);
        let text = String::from_utf8(output).expect("output is UTF-8");
        assert!(text.contains("HIT or STAY?\nPlease answer HIT or STAY.\nHIT or STAY?\n"));
    }
}
