from desktop_agent.cli import main

raise SystemExit(main())
