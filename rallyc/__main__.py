from rallyc.cli import main

main()
