//! How many worker threads a run gets, and the pool that runs them.

/// The worker threads when none are asked for: the CPUs this process may use (std reads the
/// affinity mask and the cgroup CPU quota that Kubernetes sets), and no more than a Slurm task's
/// `SLURM_CPUS_PER_TASK`, which `srun -c` does not always enforce by affinity.
#[must_use]
pub fn default_threads() -> usize {
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    let slurm = std::env::var("SLURM_CPUS_PER_TASK").ok();
    slurm_cpus(slurm.as_deref()).map_or(cores, |cpus| cpus.min(cores))
}

/// `SLURM_CPUS_PER_TASK`'s value as a CPU count; `None` when it is absent or not a positive
/// whole number (the variable is Slurm's, so a bad value is ignored rather than refused).
fn slurm_cpus(value: Option<&str>) -> Option<usize> {
    value?.trim().parse().ok().filter(|&cpus| cpus > 0)
}

/// A pool of `threads` worker threads (0 = [`default_threads`]).
pub fn thread_pool(threads: usize) -> std::io::Result<rayon::ThreadPool> {
    let threads = if threads == 0 {
        default_threads()
    } else {
        threads
    };
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| std::io::Error::other(format!("cannot start {threads} worker threads: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slurm_cpus_per_task_reads_positive_counts_only() {
        assert_eq!(slurm_cpus(Some("1")), Some(1));
        assert_eq!(slurm_cpus(Some(" 16\n")), Some(16));
        for ignored in [
            None,
            Some(""),
            Some("0"),
            Some("-2"),
            Some("2(x3)"),
            Some("four"),
        ] {
            assert_eq!(slurm_cpus(ignored), None, "{ignored:?}");
        }
    }
}
