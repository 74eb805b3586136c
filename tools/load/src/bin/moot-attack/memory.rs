//! A process's memory, from `/proc/<pid>/status`: the peak (`VmHWM`, the most it ever held
//! resident, kept per process) and what it holds now (`VmRSS`).

/// Memory figures of one process, in KiB.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Memory {
    /// `VmHWM`: the peak resident set.
    pub peak_kib: u64,
    /// `VmRSS`: the resident set now.
    pub resident_kib: u64,
}

/// Reads the figures of process `pid`.
pub fn of_process(pid: u32) -> Result<Memory, String> {
    let path = format!("/proc/{pid}/status");
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{path}: {e}"))?;
    parse_status(&text).ok_or_else(|| format!("{path}: no VmHWM or VmRSS"))
}

/// The figures in the text of a `/proc/<pid>/status` file.
pub fn parse_status(text: &str) -> Option<Memory> {
    Some(Memory {
        peak_kib: kib(text, "VmHWM")?,
        resident_kib: kib(text, "VmRSS")?,
    })
}

/// The value of a `Name:   1234 kB` line.
fn kib(text: &str, name: &str) -> Option<u64> {
    text.lines()
        .find_map(|line| line.strip_prefix(name)?.strip_prefix(':'))?
        .trim()
        .strip_suffix("kB")?
        .trim()
        .parse()
        .ok()
}

/// KiB as megabytes (MiB), as the table shows them: `104 MB`.
pub fn megabytes(kib: u64) -> String {
    format!("{:.0} MB", kib as f64 / 1024.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    const STATUS: &str = "Name:\tmoot\nVmPeak:\t 2000000 kB\nVmSize:\t 1900000 kB\nVmHWM:\t  106496 kB\nVmRSS:\t   94208 kB\nRssAnon:\t   80000 kB\nThreads:\t39\n";

    #[test]
    fn the_peak_is_vmhwm_and_the_resident_set_is_vmrss_in_kib() {
        assert_eq!(
            parse_status(STATUS),
            Some(Memory {
                peak_kib: 106_496,
                resident_kib: 94_208
            })
        );
    }

    #[test]
    fn a_status_without_vmhwm_has_no_figures() {
        // Kernel threads and exited processes have no memory lines.
        assert_eq!(parse_status("Name:\tkthreadd\nVmRSS:\t 1 kB\n"), None);
    }

    #[test]
    fn lines_that_only_start_like_the_name_are_not_read() {
        let text = "VmRSSx:\t 5 kB\nVmHWM:\t 7 kB\nVmRSS:\t 3 kB\n";
        assert_eq!(
            parse_status(text),
            Some(Memory {
                peak_kib: 7,
                resident_kib: 3
            })
        );
    }

    #[test]
    fn megabytes_are_mebibytes_rounded() {
        assert_eq!(megabytes(106_496), "104 MB");
    }
}
