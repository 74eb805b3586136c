//! The priority the abusive clients' threads run at.
//!
//! Real abusers run on other machines; here their threads share the cores with the server and
//! the measuring client, and their own CPU use would be measured as the server's unfairness. So
//! by default ([`Abusers::Idle`]) the abusive client threads run under `SCHED_IDLE` (Linux): the
//! server and the measuring client come first, and the abusers send as fast as what is left
//! lets them. [`Abusers::Normal`] runs them at the normal priority.

/// The priority the abusive clients' threads run at (see the module).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Abusers {
    /// Under `SCHED_IDLE` (Linux): as if they ran on other machines.
    Idle,
    /// At the tool's own priority, competing for the cores with the server.
    Normal,
}

impl Abusers {
    /// Lowers the calling (abusive client) thread as asked.
    pub fn lower_this_thread(self) -> Result<(), String> {
        match self {
            Abusers::Normal => Ok(()),
            #[cfg(target_os = "linux")]
            Abusers::Idle => idle_this_thread(),
            #[cfg(not(target_os = "linux"))]
            Abusers::Idle => Err("SCHED_IDLE is Linux's".to_owned()),
        }
    }

    /// Where the abusers run, in words, for the output.
    pub fn describe(self) -> &'static str {
        match self {
            Abusers::Idle => {
                "under SCHED_IDLE (standing in for clients on other machines: the server and the measuring client come first)"
            }
            Abusers::Normal => "at the normal priority, on the same cores as the server",
        }
    }
}

/// Puts the calling thread under `SCHED_IDLE`: it runs only when no other thread wants the core.
#[cfg(target_os = "linux")]
fn idle_this_thread() -> Result<(), String> {
    use thread_priority::{
        NormalThreadSchedulePolicy, ThreadPriority, ThreadSchedulePolicy,
        set_thread_priority_and_policy, thread_native_id, thread_schedule_policy,
    };
    let idle = ThreadSchedulePolicy::Normal(NormalThreadSchedulePolicy::Idle);
    // The crate also sets the nice value (to 0, which `SCHED_IDLE` ignores); that part may be
    // refused for a niced process while the policy itself took: the policy decides.
    let asked = set_thread_priority_and_policy(thread_native_id(), ThreadPriority::Min, idle);
    match (thread_schedule_policy(), asked) {
        (Ok(now), _) if now == idle => Ok(()),
        (_, Err(e)) => Err(format!("{e:?}")),
        (_, Ok(())) => Err("the policy did not change".to_owned()),
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;
    use std::thread;

    fn policy_of_a_thread_lowered_as(abusers: Abusers) -> thread_priority::ThreadSchedulePolicy {
        thread::spawn(move || {
            abusers.lower_this_thread().expect("lowered");
            thread_priority::thread_schedule_policy().expect("the policy reads")
        })
        .join()
        .expect("the thread ends")
    }

    #[test]
    fn abusive_clients_run_under_sched_idle_unless_asked_for_normal() {
        use thread_priority::{NormalThreadSchedulePolicy, ThreadSchedulePolicy};
        assert_eq!(
            policy_of_a_thread_lowered_as(Abusers::Idle),
            ThreadSchedulePolicy::Normal(NormalThreadSchedulePolicy::Idle)
        );
        assert_eq!(
            policy_of_a_thread_lowered_as(Abusers::Normal),
            ThreadSchedulePolicy::Normal(NormalThreadSchedulePolicy::Other)
        );
    }
}
