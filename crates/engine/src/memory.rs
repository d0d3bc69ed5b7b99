//! Running out of memory as a message, not a crash.
//!
//! Two guards:
//! - [`check_address_space`]: before a command that writes a results folder takes its lock or
//!   creates its staging folder, an address-space limit (`ulimit -v`, `RLIMIT_AS`) below
//!   [`MIN_ADDRESS_SPACE`] is refused with the limit found and how to raise it;
//! - [`GuardedAllocator`], the binary's global allocator: when an allocation fails it frees a
//!   reserve set aside at start, removes the staging folders and lock files registered with
//!   [`crate::interrupt`] (as an interrupt does), says so and exits with status 1, instead of
//!   Rust's default abort (SIGABRT), which leaves them behind.
//!
//! A program built on this library (like `examples/gamblers_ruin.rs`) gets the second guard by
//! declaring `#[global_allocator] static ALLOCATOR: GuardedAllocator = GuardedAllocator;`.

use crate::console::note;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicPtr, AtomicUsize, Ordering};

use anyhow::{bail, Result};

/// The smallest address-space limit a run accepts: 256 MiB. A run of any shipped spec with
/// its default worker threads needs less than half of it; more threads and larger studies
/// need more, and running out then still ends with a message (see [`GuardedAllocator`]).
pub const MIN_ADDRESS_SPACE: u64 = 256 << 20;

/// Memory set aside at start and freed when an allocation fails, so the clean-up and the
/// message have room.
const RESERVE_BYTES: usize = 8 << 20;

/// The current soft address-space limit in bytes, if there is one.
pub fn address_space_limit() -> Option<u64> {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: `limit` is a valid rlimit for the call to fill.
    let status = unsafe { libc::getrlimit(libc::RLIMIT_AS, &mut limit) };
    (status == 0 && limit.rlim_cur != libc::RLIM_INFINITY).then_some(limit.rlim_cur)
}

/// Fails with a message when the address-space limit is below [`MIN_ADDRESS_SPACE`].
pub fn check_address_space() -> Result<()> {
    match address_space_limit() {
        Some(limit) if limit < MIN_ADDRESS_SPACE => bail!(
            "the address-space limit (ulimit -v) is {} KiB, and a run needs at least {} KiB \
             ({} MiB): raise it, e.g. `ulimit -v {}`, or remove it (`ulimit -v unlimited`); \
             nothing was written",
            limit >> 10,
            MIN_ADDRESS_SPACE >> 10,
            MIN_ADDRESS_SPACE >> 20,
            MIN_ADDRESS_SPACE >> 10
        ),
        _ => Ok(()),
    }
}

static RESERVE: AtomicPtr<u8> = AtomicPtr::new(std::ptr::null_mut());
/// The thread handling a failed allocation (0 while none is).
static FAILING: AtomicUsize = AtomicUsize::new(0);

fn reserve_layout() -> Layout {
    Layout::from_size_align(RESERVE_BYTES, 1).expect("a valid layout")
}

/// Sets the reserve aside (once, at the start of the program: the command layer calls it).
pub fn set_reserve_aside() {
    // SAFETY: the layout has a non-zero size.
    let block = unsafe { System.alloc(reserve_layout()) };
    if !block.is_null()
        && RESERVE
            .compare_exchange(
                std::ptr::null_mut(),
                block,
                Ordering::AcqRel,
                Ordering::Acquire,
            )
            .is_err()
    {
        // SAFETY: `block` was allocated above with this layout and is not shared.
        unsafe { System.dealloc(block, reserve_layout()) };
    }
}

/// The system allocator, which on failure cleans up and exits with a message (see the
/// module's documentation).
pub struct GuardedAllocator;

// SAFETY: every call is passed to `System` unchanged; only a failed allocation is handled.
unsafe impl GlobalAlloc for GuardedAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract is passed on.
        let block = unsafe { System.alloc(layout) };
        if block.is_null() {
            out_of_memory(layout.size());
        }
        block
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract is passed on.
        let block = unsafe { System.alloc_zeroed(layout) };
        if block.is_null() {
            out_of_memory(layout.size());
        }
        block
    }

    unsafe fn dealloc(&self, block: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract is passed on.
        unsafe { System.dealloc(block, layout) }
    }

    unsafe fn realloc(&self, block: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller's contract is passed on.
        let moved = unsafe { System.realloc(block, layout, new_size) };
        if moved.is_null() {
            out_of_memory(new_size);
        }
        moved
    }
}

/// Frees the reserve, removes what the run was writing, says so and exits with status 1.
fn out_of_memory(size: usize) -> ! {
    // SAFETY: pthread_self has no preconditions.
    let me = unsafe { libc::pthread_self() } as usize;
    match FAILING.compare_exchange(0, me, Ordering::AcqRel, Ordering::Acquire) {
        Ok(_) => {}
        Err(thread) if thread == me => {
            // Failed again while cleaning up: say the least, without allocating.
            let text = b"\nError: out of memory\n";
            // SAFETY: writing a static buffer to standard error, then exiting at once.
            unsafe {
                libc::write(2, text.as_ptr().cast(), text.len());
                libc::_exit(1);
            }
        }
        // Another thread is cleaning up and will end the process: wait for it.
        Err(_) => loop {
            std::thread::sleep(std::time::Duration::from_secs(1));
        },
    }
    let reserve = RESERVE.swap(std::ptr::null_mut(), Ordering::AcqRel);
    if !reserve.is_null() {
        // SAFETY: the reserve was allocated with this layout and is no longer reachable.
        unsafe { System.dealloc(reserve, reserve_layout()) };
    }
    let limit = match address_space_limit() {
        Some(limit) => format!(
            " (the address-space limit, ulimit -v, is {} KiB)",
            limit >> 10
        ),
        None => String::new(),
    };
    let cleaned = crate::interrupt::clean_up_for_exit();
    note!("\nError: out of memory allocating {size} bytes{limit}{cleaned}");
    // SAFETY: exits at once, without running destructors or flushing buffers other threads
    // may hold.
    unsafe { libc::_exit(1) }
}
