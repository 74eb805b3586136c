//! The words of "Turn on notifications" (Web Push on the pages): each state of the control, and
//! what the player can do in it. The notices themselves are the server's.

use moot_templates::notifications::{Failures, NotificationsView};

/// The control's words.
pub fn view() -> NotificationsView {
    NotificationsView {
        heading: "Notifications".to_owned(),
        explain: "This browser can tell you when it is your move, even with Moot's pages closed."
            .to_owned(),
        turn_on: "Turn on notifications".to_owned(),
        turn_off: "Turn off notifications".to_owned(),
        off: "Notifications are off in this browser.".to_owned(),
        on: "Notifications are on: this browser tells you when it is your move, or your time \
             runs short."
            .to_owned(),
        working: "One moment…".to_owned(),
        blocked: "This browser blocks Moot's notifications. To allow them, open the site's \
                  settings (the icon beside the address), set Notifications to Allow, then \
                  reload this page."
            .to_owned(),
        dismissed: "Notifications were not allowed: press the button again, and choose Allow."
            .to_owned(),
        failed: Failures {
            worker: "Notifications could not be turned on: this browser did not start Moot's \
                     notice worker."
                .to_owned(),
            key: "Notifications could not be turned on: Moot's key could not be read. Try \
                  again in a moment."
                .to_owned(),
            subscribe: "Notifications could not be turned on: this browser's push service did \
                        not answer (is it offline?)."
                .to_owned(),
            keep: "Notifications could not be turned on: Moot did not keep this browser's \
                   subscription."
                .to_owned(),
            forget: "Notifications could not be turned off: Moot could not be reached. Try \
                     again in a moment."
                .to_owned(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_state_has_words_and_each_failure_says_what_failed() {
        let view = view();
        for words in [
            &view.heading,
            &view.explain,
            &view.turn_on,
            &view.turn_off,
            &view.off,
            &view.on,
            &view.working,
            &view.blocked,
            &view.dismissed,
        ] {
            assert!(!words.is_empty());
        }
        assert!(view.blocked.contains("Allow"), "{}", view.blocked);
        let failed = &view.failed;
        for words in [&failed.worker, &failed.key, &failed.subscribe, &failed.keep] {
            assert!(
                words.starts_with("Notifications could not be turned on: "),
                "{words}"
            );
        }
        assert!(
            failed
                .forget
                .starts_with("Notifications could not be turned off: ")
        );
    }
}
