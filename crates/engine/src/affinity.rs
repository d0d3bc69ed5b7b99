//! Pinning a thread pool's workers to CPUs, one worker per CPU.
//!
//! When a run uses every CPU it may use, leaving placement to the scheduler can stack two busy
//! workers on one CPU while another stays idle for milliseconds: a worker woken while the
//! calling thread still holds the other CPU is queued behind a busy worker, and the scheduler
//! does not move a thread that ran a moment ago. On a run of a few milliseconds that halves the
//! speed. Pinning each worker to its own CPU rules this out. A pool smaller than the CPUs the
//! process may use is left alone, so that runs side by side on one machine spread freely.

/// The CPUs this process may run on, in increasing order (empty when the system does not say).
#[cfg(target_os = "linux")]
pub fn allowed_cpus() -> Vec<usize> {
    // SAFETY: a zeroed `cpu_set_t` is a valid empty set, and the call writes at most its size.
    let mut set: libc::cpu_set_t = unsafe { std::mem::zeroed() };
    let size = std::mem::size_of::<libc::cpu_set_t>();
    // SAFETY: `set` is a valid, writable `cpu_set_t` of `size` bytes.
    if unsafe { libc::sched_getaffinity(0, size, &mut set) } != 0 {
        return Vec::new();
    }
    let slots = usize::try_from(libc::CPU_SETSIZE).unwrap_or(0);
    // SAFETY: every index is below CPU_SETSIZE, the capacity of `set`.
    (0..slots)
        .filter(|&cpu| unsafe { libc::CPU_ISSET(cpu, &set) })
        .collect()
}

/// The CPUs this process may run on (unknown on this system).
#[cfg(not(target_os = "linux"))]
pub fn allowed_cpus() -> Vec<usize> {
    Vec::new()
}

/// Pins the calling thread to `cpu`; returns whether the system agreed.
#[cfg(target_os = "linux")]
pub fn pin_current_thread(cpu: usize) -> bool {
    let slots = usize::try_from(libc::CPU_SETSIZE).unwrap_or(0);
    if cpu >= slots {
        return false;
    }
    // SAFETY: a zeroed `cpu_set_t` is a valid empty set, and `cpu` is below its capacity.
    let mut set: libc::cpu_set_t = unsafe { std::mem::zeroed() };
    unsafe { libc::CPU_SET(cpu, &mut set) };
    let size = std::mem::size_of::<libc::cpu_set_t>();
    // SAFETY: `set` is a valid `cpu_set_t` of `size` bytes; 0 names the calling thread.
    unsafe { libc::sched_setaffinity(0, size, &set) == 0 }
}

/// Pins the calling thread (not possible on this system).
#[cfg(not(target_os = "linux"))]
pub fn pin_current_thread(_cpu: usize) -> bool {
    false
}

/// Pins worker `i` of `pool` to the `i`-th CPU this process may use, if the pool has exactly one
/// worker per such CPU; returns whether it did so for every worker.
pub fn pin_workers(pool: &rayon::ThreadPool) -> bool {
    let cpus = allowed_cpus();
    if cpus.len() < 2 || cpus.len() != pool.current_num_threads() {
        return false;
    }
    pool.broadcast(|context| pin_current_thread(cpus[context.index()]))
        .into_iter()
        .all(|pinned| pinned)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pool_with_one_worker_per_cpu_is_pinned_one_worker_per_cpu() {
        let cpus = allowed_cpus();
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(cpus.len().max(1))
            .build()
            .expect("pool");
        let pinned = pin_workers(&pool);
        assert_eq!(pinned, cfg!(target_os = "linux") && cpus.len() >= 2);
        if pinned {
            // Each worker now runs on its own CPU, and only there.
            let seen = pool.broadcast(|context| (context.index(), allowed_cpus()));
            for (index, allowed) in seen {
                assert_eq!(allowed, vec![cpus[index]]);
            }
        }
    }

    #[test]
    fn a_pool_smaller_than_the_cpus_is_left_to_the_scheduler() {
        let cpus = allowed_cpus();
        if cpus.len() < 2 {
            return;
        }
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(cpus.len() - 1)
            .build()
            .expect("pool");
        assert!(!pin_workers(&pool));
        let seen = pool.broadcast(|_| allowed_cpus());
        assert!(seen.iter().all(|allowed| allowed == &cpus));
    }
}
