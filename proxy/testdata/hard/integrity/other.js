var other = {loaded: true};
